// API keys of the page's mode: create (the secret shown once), rotate, revoke, permissions and
// fences. A dashboard session makes and rotates keys only with the password again.
import {useState} from 'preact/hooks';
import {api, ok} from '../api/client';
import type {components} from '../api/schema';
import {Checkbox, DataTable, Field, Loading, Outcome, Secret, Section, Select, TextArea} from '../components/ui';
import {useAction, useLoad} from '../hooks';
import {useLocale} from '../i18n';
import {useSession} from '../session';

type Permissions = components['schemas']['ApiKeyPermissions'];
const RESOURCES = ['account', 'api_keys', 'compliance', 'contact_groups', 'contact_lists', 'contacts', 'email', 'messages', 'phone_numbers', 'verifications', 'webhooks'];

function permissionsFor(choice: string, custom: string): Permissions {
  if (choice === 'all') return Object.fromEntries(RESOURCES.map((r) => [r, 'rwmd'])) as Permissions;
  if (choice === 'read') return Object.fromEntries(RESOURCES.map((r) => [r, 'r'])) as Permissions;
  return JSON.parse(custom) as Permissions;
}

function describe(permissions: Record<string, string>): string {
  return Object.entries(permissions).map(([resource, letters]) => `${resource}:${letters}`).join(' ');
}

export function Keys() {
  const {t, dateTime} = useLocale();
  const {mode} = useSession();
  const keys = useLoad(() => ok(api.GET('/v1/api-keys')), []);
  const contactLists = useLoad(() => ok(api.GET('/v1/contact-lists', {params: {query: {limit: 100}}})), []);
  const lists = contactLists.data?.data ?? [];
  const [label, setLabel] = useState('');
  const [choice, setChoice] = useState('all');
  const [custom, setCustom] = useState('{"messages": "rw"}');
  const [defaultDeny, setDefaultDeny] = useState(false);
  const [allowList, setAllowList] = useState('');
  const [denyList, setDenyList] = useState('');
  const [password, setPassword] = useState('');
  const [secret, setSecret] = useState<{label: string; value: string} | null>(null);
  const action = useAction();

  const create = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const made = await ok(api.POST('/v1/api-keys', {
        body: {
          mode, label: label || undefined, permissions: permissionsFor(choice, custom), default_deny: defaultDeny,
          allow_list_id: allowList || undefined, deny_list_id: denyList || undefined, password,
        },
      }));
      setSecret({label: t.keys.created, value: made.key});
      setLabel('');
      keys.reload();
    });
  };
  const rotate = (id: string) =>
    action.run(async () => {
      const made = await ok(api.POST('/v1/api-keys/{id}/rotate', {params: {path: {id}}, body: {password}}));
      setSecret({label: t.keys.rotated, value: made.key});
      keys.reload();
    });
  const revoke = (id: string) => {
    if (!window.confirm(t.confirm)) return;
    action.run(async () => {
      await ok(api.DELETE('/v1/api-keys/{id}', {params: {path: {id}}}));
      keys.reload();
      return t.keys.revoked;
    });
  };

  const shown = (keys.data?.data ?? []).filter((k) => k.mode === mode);
  return (
    <>
      <h1>{t.keys.title}</h1>
      <p class="hint">{t.keys.sessionNote}</p>
      <Section title={t.keys.create}>
        <form onSubmit={create}>
          <Field label={t.keys.label} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
          <Select label={t.keys.permissions} value={choice} onChange={(e) => setChoice(e.currentTarget.value)}
                  options={[['all', t.keys.allPermissions], ['read', t.keys.readOnly], ['custom', t.keys.custom]]} />
          {choice === 'custom' && (
            <TextArea label={t.keys.custom} rows={2} value={custom} onInput={(e) => setCustom(e.currentTarget.value)} />
          )}
          <Checkbox label={t.keys.defaultDeny} checked={defaultDeny} onChange={(e) => setDefaultDeny(e.currentTarget.checked)} />
          <Select label={t.keys.allowList} value={allowList} onChange={(e) => setAllowList(e.currentTarget.value)}
                  options={[['', t.none], ...lists.map((l): [string, string] => [l.id, l.name])]} />
          <Select label={t.keys.denyList} value={denyList} onChange={(e) => setDenyList(e.currentTarget.value)}
                  options={[['', t.none], ...lists.map((l): [string, string] => [l.id, l.name])]} />
          <Field label={t.keys.password} name="password" type="password" autoComplete="current-password" required value={password}
                 onInput={(e) => setPassword(e.currentTarget.value)} data-testid="step-up-password" />
          <button type="submit" class="primary" disabled={action.busy}>{t.keys.create}</button>
        </form>
      </Section>
      <Outcome problem={action.problem} notice={action.notice} />
      {secret && <Secret label={secret.label} value={secret.value} />}
      {!keys.data && <Loading what={keys} />}
      {keys.data && shown.length === 0 && <p>{t.keys.empty}</p>}
      {shown.length > 0 && (
        <DataTable caption={t.keys.title} head={[t.keys.label, t.keys.prefix, t.keys.permissions, t.keys.lastUsed, t.actions]}>
          {shown.map((k) => (
            <tr key={k.id} data-testid="key-row" data-label={k.label ?? ''}>
              <td>
                {k.label}
                {(k.defaultDeny || k.allow_list_id || k.deny_list_id) && <span class="badge">{t.keys.fenced}</span>}
                {k.oauth_grant && <span class="badge">{t.keys.oauth}</span>}
              </td>
              <td><code>{k.keyPrefix}…</code></td>
              <td class="permissions">{describe(k.permissions as Record<string, string>)}</td>
              <td>{k.lastUsedAt ? dateTime(k.lastUsedAt) : t.keys.never}</td>
              <td class="row-actions">
                {!k.oauth_grant && (
                  <button type="button" disabled={action.busy} onClick={() => rotate(k.id)} data-testid="rotate" aria-label={`${t.keys.rotate} ${k.label ?? k.keyPrefix}`}>
                    {t.keys.rotate}
                  </button>
                )}
                <button type="button" disabled={action.busy} onClick={() => revoke(k.id)} aria-label={`${t.keys.revoke} ${k.label ?? k.keyPrefix}`}>
                  {t.keys.revoke}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
