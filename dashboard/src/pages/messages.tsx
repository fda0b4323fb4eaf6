// Messages in the page's mode: a live list (refreshed every few seconds, no reload) with
// filters, one message's timeline, and a compose form that shows the parts and the cost before
// anything is sent.
import {useState} from 'preact/hooks';
import {api, idempotencyKey, ok} from '../api/client';
import type {operations} from '../api/schema';
import {Checkbox, DataTable, Field, Loading, Outcome, Section, Select, StatusBadge, TextArea} from '../components/ui';
import {useAction, useLoad} from '../hooks';
import {useLocale} from '../i18n';
import {useSession} from '../session';
import {countParts} from '../sms_parts';

type ListQuery = NonNullable<operations['listMessages']['parameters']['query']>;
const STATUSES: NonNullable<ListQuery['status']>[] = ['QUEUED', 'SENDING', 'SENT', 'DELIVERED', 'FAILED', 'UNDELIVERED', 'RECEIVED'];
const DIRECTIONS: NonNullable<ListQuery['direction']>[] = ['OUTBOUND', 'INBOUND'];
const REFRESH_MS = 2000;

export function Messages({id}: {id?: string}) {
  return id ? <MessageDetail id={id} /> : <MessageList />;
}

interface Filters {
  status: string;
  direction: string;
  from: string;
  to: string;
  since: string;
  until: string;
}

// A select's value as one the contract allows, or none.
function oneOf<T extends string>(allowed: readonly T[], value: string): T | undefined {
  return allowed.find((item) => item === value);
}

// A date input's day, as the instant it starts (or ends) in the browser's time zone.
function dayStart(day: string, plusDays = 0): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + plusDays);
  return date.toISOString();
}

function MessageList() {
  const {t, money, dateTime} = useLocale();
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<Filters>({status: '', direction: '', from: '', to: '', since: '', until: ''});
  const [filters, setFilters] = useState<Filters>(draft);
  const list = useLoad(
    () =>
      ok(api.GET('/v1/messages', {
        params: {
          query: {
            page,
            limit: 20,
            status: oneOf(STATUSES, filters.status),
            direction: oneOf(DIRECTIONS, filters.direction),
            from: filters.from || undefined,
            to: filters.to || undefined,
            created_after: dayStart(filters.since),
            created_before: dayStart(filters.until, 1),
          },
        },
      })),
    [page, filters],
    REFRESH_MS,
  );
  const set = (field: keyof Filters) => (e: {currentTarget: {value: string}}) =>
    setDraft({...draft, [field]: e.currentTarget.value});
  const apply = (event: Event) => {
    event.preventDefault();
    setPage(1);
    setFilters(draft);
  };
  const meta = list.data?.meta;
  return (
    <>
      <h1>{t.messages.title}</h1>
      <Compose onSent={list.reload} />
      <Section title={t.messages.filters}>
        <form onSubmit={apply} class="filters">
          <Select label={t.status} value={draft.status} onChange={set('status')}
                  options={[['', t.messages.allStatuses], ...STATUSES.map((s): [string, string] => [s, t.statuses[s] ?? s])]} />
          <Select label={t.messages.direction} value={draft.direction} onChange={set('direction')}
                  options={[['', t.messages.allDirections], ['OUTBOUND', t.messages.outbound], ['INBOUND', t.messages.inbound]]} />
          <Field label={t.messages.from} type="tel" value={draft.from} onInput={set('from')} />
          <Field label={t.messages.to} type="tel" value={draft.to} onInput={set('to')} />
          <Field label={t.messages.since} type="date" value={draft.since} onInput={set('since')} />
          <Field label={t.messages.until} type="date" value={draft.until} onInput={set('until')} />
          <button type="submit">{t.messages.apply}</button>
        </form>
      </Section>
      <p class="hint" aria-live="off">{t.messages.live}</p>
      {!list.data && <Loading what={list} />}
      {list.data && list.data.data.length === 0 && <p>{t.messages.empty}</p>}
      {list.data && list.data.data.length > 0 && (
        <DataTable caption={t.messages.title}
                   head={[t.messages.when, t.status, t.messages.from, t.messages.to, t.messages.body, t.messages.parts, t.messages.cost]}>
          {list.data.data.map((m) => (
            <tr key={m.id} data-testid="message-row" data-id={m.id} data-status={m.status}>
              <td><a href={`#/messages/${encodeURIComponent(m.id)}`}>{dateTime(m.created_at)}</a></td>
              <td><StatusBadge status={m.status} /></td>
              <td>{m.from}</td>
              <td>{m.to}</td>
              <td class="body-cell">{m.body}</td>
              <td class="number">{m.segment_count}</td>
              <td class="number">{money(m.cost_cents ?? 0)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {meta && meta.pages > 1 && (
        <div class="pager">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t.previous}</button>
          <span>{t.pageOf(meta.page, meta.pages)}</span>
          <button type="button" disabled={page >= meta.pages} onClick={() => setPage(page + 1)}>{t.next}</button>
        </div>
      )}
    </>
  );
}

function Compose({onSent}: {onSent: () => void}) {
  const {t, money} = useLocale();
  const {mode} = useSession();
  const live = mode === 'LIVE';
  const numbers = useLoad(() => (live ? ok(api.GET('/v1/phone-numbers')) : Promise.resolve(null)), [live]);
  const pricing = useLoad(() => ok(api.GET('/v1/pricing')), []);
  const owned = (numbers.data?.data ?? []).filter((n) => n.status === 'ACTIVE').map((n) => n.phone_number);
  const [from, setFrom] = useState(live ? '' : '+14165550100');
  const [to, setTo] = useState('');
  const [body, setBody] = useState('');
  const [skipConsent, setSkipConsent] = useState(false);
  const action = useAction();
  const parts = countParts(body);
  const perPart = pricing.data?.prices.find((p) => p.code === 'sms_outbound_part')?.cents ?? 0;
  const preview = live
    ? t.messages.preview(parts.parts, parts.encoding, money(parts.parts * perPart))
    : t.messages.previewTest(parts.parts, parts.encoding);
  const sender = live ? from || owned[0] || '' : from;
  const submit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const sent = (await ok(api.POST('/v1/messages', {
        headers: {'Idempotency-Key': idempotencyKey()},
        body: {from: sender, to, body, ...(live ? {} : {skip_consent_check: skipConsent})},
      })));
      setBody('');
      onSent();
      return t.messages.sent(sent.id);
    });
  };
  return (
    <Section title={t.messages.compose}>
      {live && numbers.data && owned.length === 0 && <p class="notice warning">{t.messages.noOwnNumber}</p>}
      <form onSubmit={submit} class="compose">
        {live ? (
          <Select label={t.messages.from} value={sender} onChange={(e) => setFrom(e.currentTarget.value)}
                  options={owned.map((n): [string, string] => [n, n])} />
        ) : (
          <Field label={t.messages.from} type="tel" required value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        )}
        <Field label={t.messages.to} name="to" type="tel" required placeholder="+15142220123" value={to}
               onInput={(e) => setTo(e.currentTarget.value)} />
        <TextArea label={t.messages.body} required rows={3} value={body} hint={preview}
                  onInput={(e) => setBody(e.currentTarget.value)} data-testid="compose-body" />
        {!live && (
          <Checkbox label={t.messages.skipConsent} checked={skipConsent}
                    onChange={(e) => setSkipConsent(e.currentTarget.checked)} />
        )}
        <button type="submit" class="primary" disabled={action.busy || !sender} data-testid="send">{t.messages.send}</button>
      </form>
      <Outcome problem={action.problem} notice={action.notice} />
    </Section>
  );
}

function MessageDetail({id}: {id: string}) {
  const {t, money, dateTime} = useLocale();
  const message = useLoad(() => ok(api.GET('/v1/messages/{id}', {params: {path: {id}}})), [id], REFRESH_MS);
  const m = message.data;
  const finished = m && (m.status === 'DELIVERED' || m.status === 'FAILED' || m.status === 'UNDELIVERED');
  return (
    <>
      <p><a href="#/messages">← {t.messages.back}</a></p>
      <h1>{t.messages.detail} <code>{id}</code></h1>
      {!m && <Loading what={message} />}
      {m && (
        <>
          <dl class="figures">
            <div><dt>{t.status}</dt><dd data-testid="message-status"><StatusBadge status={m.status} /></dd></div>
            <div><dt>{t.messages.from}</dt><dd>{m.from}</dd></div>
            <div><dt>{t.messages.to}</dt><dd>{m.to}</dd></div>
            <div><dt>{t.messages.parts}</dt><dd data-testid="message-parts">{m.segment_count}</dd></div>
            <div><dt>{t.messages.cost}</dt><dd>{money(m.cost_cents ?? 0)}</dd></div>
          </dl>
          <p class="message-body">{m.body}</p>
          <Section title={t.messages.timeline}>
            <ol class="timeline">
              <li>{t.messages.queued}: {dateTime(m.created_at)}</li>
              {m.sent_at && <li>{t.messages.handedOff}: {dateTime(m.sent_at)}</li>}
              {m.delivered_at && <li>{t.messages.delivered}: {dateTime(m.delivered_at)}</li>}
              {finished && m.status !== 'DELIVERED' && (
                <li>
                  {t.messages.failed}: {m.error_code} {m.error_message}
                </li>
              )}
            </ol>
          </Section>
        </>
      )}
    </>
  );
}
