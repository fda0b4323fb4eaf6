// Webhook endpoints of the page's mode: add (the signing secret shown once), rotate the secret,
// reactivate, delete; each endpoint's recent attempts and dead letters, replayed on demand.
import {useState} from 'preact/hooks';
import {api, ok} from '../api/client';
import type {components} from '../api/schema';
import {Checkbox, DataTable, Field, Loading, Outcome, Secret, Section} from '../components/ui';
import {useAction, useLoad} from '../hooks';
import {useLocale} from '../i18n';

type Webhook = components['schemas']['Webhook'];
type EventType = components['schemas']['EventType'];
const MESSAGE_EVENTS: EventType[] = ['message.queued', 'message.sent', 'message.delivered', 'message.failed',
  'message.undelivered', 'message.received', 'opt_out.recorded', 'opt_out.reinstated',
  'phone_number.suspended', 'phone_number.released', 'account.sending_paused', 'account.spend_warning'];

export function Webhooks() {
  const {t} = useLocale();
  const hooks = useLoad(() => ok(api.GET('/v1/webhooks')), []);
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const [events, setEvents] = useState<EventType[]>(['message.queued', 'message.sent', 'message.delivered', 'message.failed']);
  const [secret, setSecret] = useState<{label: string; value: string} | null>(null);
  const action = useAction();

  const add = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      // An endpoint outlives this session: the API asks the password again (STEP_UP_REQUIRED).
      const made = await ok(api.POST('/v1/webhooks', {body: {url, events, password}}));
      setSecret({label: t.webhooks.added, value: made.signing_secret});
      setUrl('');
      setPassword('');
      hooks.reload();
    });
  };
  const toggle = (name: EventType, on: boolean) =>
    setEvents(on ? [...events, name] : events.filter((e) => e !== name));
  const list = hooks.data?.data ?? [];
  return (
    <>
      <h1>{t.webhooks.title}</h1>
      <Section title={t.webhooks.add}>
        <form onSubmit={add}>
          <Field label={t.webhooks.url} name="url" type="url" required value={url} placeholder="https://example.ca/hooks/sms"
                 onInput={(e) => setUrl(e.currentTarget.value)} />
          <fieldset>
            <legend>{t.webhooks.events}</legend>
            <div class="event-grid">
              {MESSAGE_EVENTS.map((name) => (
                <Checkbox key={name} label={name} checked={events.includes(name)} onChange={(e) => toggle(name, e.currentTarget.checked)} />
              ))}
            </div>
          </fieldset>
          <Field label={t.webhooks.password} name="password" type="password" required autoComplete="current-password"
                 value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          <button type="submit" class="primary" disabled={action.busy || events.length === 0} data-testid="add-webhook">{t.webhooks.add}</button>
        </form>
      </Section>
      <Outcome problem={action.problem} notice={action.notice} />
      {secret && <Secret label={secret.label} value={secret.value} />}
      {!hooks.data && <Loading what={hooks} />}
      {hooks.data && list.length === 0 && <p>{t.webhooks.empty}</p>}
      {list.map((hook) => (
        <Endpoint key={hook.id} hook={hook} onChanged={hooks.reload} onSecret={(value) => setSecret({label: t.webhooks.secretRotated, value})} />
      ))}
    </>
  );
}

function Endpoint({hook, onChanged, onSecret}: {hook: Webhook; onChanged: () => void; onSecret: (secret: string) => void}) {
  const {t, dateTime} = useLocale();
  const [open, setOpen] = useState(false);
  const action = useAction();
  const rotate = () =>
    action.run(async () => {
      const rotated = await ok(api.POST('/v1/webhooks/{id}/rotate-secret', {params: {path: {id: hook.id}}}));
      onSecret(rotated.signing_secret);
    });
  const reactivate = () =>
    action.run(async () => {
      await ok(api.POST('/v1/webhooks/{id}/reactivate', {params: {path: {id: hook.id}}}));
      onChanged();
    });
  const remove = () => {
    if (!window.confirm(t.confirm)) return;
    action.run(async () => {
      await ok(api.DELETE('/v1/webhooks/{id}', {params: {path: {id: hook.id}}}));
      onChanged();
    });
  };
  return (
    <section class="card" aria-label={hook.url} data-testid="webhook" data-id={hook.id}>
      <h2 class="url">{hook.url}</h2>
      <p>
        <span class={`badge ${hook.active ? 'badge-active' : 'badge-failed'}`}>{hook.active ? t.webhooks.enabled : t.webhooks.disabled}</span>{' '}
        {hook.events.join(', ')}
      </p>
      <div class="row-actions">
        <button type="button" onClick={() => setOpen(!open)} aria-expanded={open} data-testid="show-attempts">{t.webhooks.show}</button>
        <button type="button" onClick={rotate} disabled={action.busy}>{t.webhooks.rotateSecret}</button>
        {!hook.active && <button type="button" onClick={reactivate} disabled={action.busy}>{t.webhooks.reactivate}</button>}
        <button type="button" onClick={remove} disabled={action.busy}>{t.webhooks.remove}</button>
      </div>
      <Outcome problem={action.problem} notice={action.notice} />
      {open && <Attempts hook={hook} dateTime={dateTime} />}
    </section>
  );
}

function Attempts({hook, dateTime}: {hook: Webhook; dateTime: (iso: string | null | undefined) => string}) {
  const {t} = useLocale();
  const deliveries = useLoad(() => ok(api.GET('/v1/webhooks/{id}/deliveries', {params: {path: {id: hook.id}, query: {limit: 20}}})), [hook.id], 3000);
  const dead = useLoad(() => ok(api.GET('/v1/webhooks/{id}/dead-letters', {params: {path: {id: hook.id}}})), [hook.id]);
  const action = useAction();
  const replay = (id: string) =>
    action.run(async () => {
      await ok(api.POST('/v1/webhooks/dead-letters/{id}/replay', {params: {path: {id}}}));
      dead.reload();
      deliveries.reload();
      return t.webhooks.replayed;
    });
  const attempts = deliveries.data?.data ?? [];
  const letters = dead.data?.data ?? [];
  return (
    <>
      <h3>{t.webhooks.attempts}</h3>
      {!deliveries.data && <Loading what={deliveries} />}
      {deliveries.data && attempts.length === 0 && <p>{t.webhooks.noAttempts}</p>}
      {attempts.length > 0 && (
        <DataTable caption={`${t.webhooks.attempts}: ${hook.url}`} head={[t.messages.when, t.webhooks.event, t.webhooks.attempt, t.status, t.webhooks.response]}>
          {attempts.map((a) => (
            <tr key={a.id} data-testid="attempt" data-event={a.event_type} data-success={String(a.success)}>
              <td>{dateTime(a.occurred_at)}</td>
              <td>{a.event_type}</td>
              <td class="number">{a.attempt}</td>
              <td>{a.success ? '✓' : '✗'}</td>
              <td>{a.http_status ?? ''} {a.error_reason ?? ''} {a.duration_ms != null ? `(${a.duration_ms} ms)` : ''}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <h3>{t.webhooks.deadLetters}</h3>
      <Outcome problem={action.problem} notice={action.notice} />
      {dead.data && letters.length === 0 && <p>{t.webhooks.noDeadLetters}</p>}
      {letters.length > 0 && (
        <DataTable caption={`${t.webhooks.deadLetters}: ${hook.url}`} head={[t.created, t.webhooks.event, t.webhooks.response, t.actions]}>
          {letters.map((d) => (
            <tr key={d.id}>
              <td>{dateTime(d.created_at)}</td>
              <td>{d.event_type}</td>
              <td>{d.failed_reason}</td>
              <td>
                <button type="button" onClick={() => replay(d.id)} disabled={action.busy || d.replayed_at !== null}>{t.webhooks.replay}</button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
