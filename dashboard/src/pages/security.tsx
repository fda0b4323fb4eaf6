// The owner's own sign-in (docs/dashboard.md, "Account security"): the sender name that signs
// texts to subscribers, the password, the sign-in email, and the open sessions. Account-wide, so
// every call acts as LIVE whatever the page's mode.
import {useState} from 'preact/hooks';
import {api, ok} from '../api/client';
import {DataTable, Field, Loading, Outcome, Section} from '../components/ui';
import {useAction, useLoad} from '../hooks';
import {useLocale} from '../i18n';
import {useSession} from '../session';

const LIVE = {'X-Dashboard-Mode': 'LIVE'} as const;

export function Security() {
  const {t} = useLocale();
  return (
    <>
      <h1>{t.security.title}</h1>
      <SenderName />
      <Password />
      <Email />
      <Sessions />
    </>
  );
}

function SenderName() {
  const {t} = useLocale();
  const {accountId, document, refreshAccount} = useSession();
  const [name, setName] = useState(document.account.sender_name ?? '');
  const action = useAction();
  const save = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      await ok(api.PATCH('/v1/accounts/{id}', {
        params: {path: {id: accountId}},
        body: {sender_name: name.trim() === '' ? null : name},
        headers: LIVE,
      }));
      await refreshAccount();
      return t.done;
    });
  };
  return (
    <Section title={t.security.senderName}>
      <form onSubmit={save}>
        <Field label={t.security.senderName} name="sender_name" maxLength={40} value={name}
               hint={t.security.senderNameHint} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit" disabled={action.busy} data-testid="save-sender-name">{t.save}</button>
      </form>
      <Outcome problem={action.problem} notice={action.notice} />
    </Section>
  );
}

function Password() {
  const {t} = useLocale();
  const {accountId} = useSession();
  const [current, setCurrent] = useState('');
  const [wanted, setWanted] = useState('');
  const action = useAction();
  const change = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      await ok(api.POST('/v1/accounts/{id}/password', {
        params: {path: {id: accountId}},
        body: {current_password: current, new_password: wanted},
        headers: LIVE,
      }));
      setCurrent('');
      setWanted('');
      return t.security.passwordChanged;
    });
  };
  return (
    <Section title={t.security.password}>
      <form onSubmit={change}>
        <Field label={t.security.currentPassword} name="current_password" type="password" required
               autoComplete="current-password" value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
        <Field label={t.security.newPassword} name="new_password" type="password" required minLength={10}
               autoComplete="new-password" value={wanted} onInput={(e) => setWanted(e.currentTarget.value)} />
        <button type="submit" disabled={action.busy} data-testid="change-password">{t.security.changePassword}</button>
      </form>
      <Outcome problem={action.problem} notice={action.notice} />
    </Section>
  );
}

function Email() {
  const {t} = useLocale();
  const {accountId, document} = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const ask = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const asked = await ok(api.POST('/v1/accounts/{id}/email-change', {
        params: {path: {id: accountId}},
        body: {email, password},
        headers: LIVE,
      }));
      setPassword('');
      return t.security.emailAsked(asked.pending_email);
    });
  };
  return (
    <Section title={t.security.email}>
      <p>{t.security.emailNow(document.account.email)}</p>
      <form onSubmit={ask}>
        <Field label={t.security.newEmail} name="email" type="email" required autoComplete="email" value={email}
               onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field label={t.security.yourPassword} name="password" type="password" required autoComplete="current-password"
               value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <button type="submit" disabled={action.busy} data-testid="change-email">{t.security.changeEmail}</button>
      </form>
      <Outcome problem={action.problem} notice={action.notice} />
    </Section>
  );
}

function Sessions() {
  const {t, dateTime} = useLocale();
  const sessions = useLoad(() => ok(api.GET('/v1/sessions', {headers: LIVE})), []);
  const action = useAction();
  const end = (id: string) =>
    action.run(async () => {
      await ok(api.DELETE('/v1/sessions/{id}', {params: {path: {id}}, headers: LIVE}));
      sessions.reload();
      return t.security.sessionEnded;
    });
  const endAll = () => {
    if (!window.confirm(t.confirm)) return;
    action.run(async () => {
      await ok(api.DELETE('/v1/sessions', {headers: LIVE}));
      // This session ended too: the page signs out.
      window.dispatchEvent(new Event('session-ended'));
    });
  };
  const list = sessions.data?.data ?? [];
  return (
    <Section title={t.security.sessions}>
      <Outcome problem={action.problem} notice={action.notice} />
      {!sessions.data && <Loading what={sessions} />}
      {list.length > 0 && (
        <DataTable caption={t.security.sessions}
                   head={[t.security.started, t.security.from, t.security.browser, t.security.lastUsed, t.actions]}>
          {list.map((s) => (
            <tr key={s.id} data-testid="session-row">
              <td>{dateTime(s.created_at)}</td>
              <td>{s.client_ip}</td>
              <td class="user-agent">{s.user_agent ?? t.none}</td>
              <td>{s.last_used_at ? dateTime(s.last_used_at) : t.keys.never}</td>
              <td>
                {s.current ? (
                  <strong>{t.security.thisSession}</strong>
                ) : (
                  <button type="button" onClick={() => end(s.id)} aria-label={`${t.security.end} ${dateTime(s.created_at)}`}>
                    {t.security.end}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <button type="button" onClick={endAll} disabled={action.busy} data-testid="sign-out-everywhere">
        {t.security.signOutEverywhere}
      </button>
    </Section>
  );
}
