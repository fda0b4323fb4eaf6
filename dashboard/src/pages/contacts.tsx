// Contacts and groups (shared by both modes), and a group broadcast with its per-member results.
import {useState} from 'preact/hooks';
import {api, idempotencyKey, ok} from '../api/client';
import type {components} from '../api/schema';
import {DataTable, Field, Loading, Outcome, Section, Select, TextArea} from '../components/ui';
import {useAction, useLoad} from '../hooks';
import {useLocale} from '../i18n';
import {useSession} from '../session';

type BroadcastResult = components['schemas']['BroadcastResult'];

export function Contacts() {
  const {t} = useLocale();
  const contacts = useLoad(() => ok(api.GET('/v1/contacts', {params: {query: {limit: 100}}})), []);
  const groups = useLoad(() => ok(api.GET('/v1/contact-groups', {params: {query: {limit: 100}}})), []);
  return (
    <>
      <h1>{t.contacts.title}</h1>
      <ContactList contacts={contacts} />
      <Groups groups={groups} contacts={contacts.data?.data ?? []} />
    </>
  );
}

type Loaded<T> = ReturnType<typeof useLoad<T>>;
type ContactPage = components['schemas']['ContactPage'];
type GroupPage = components['schemas']['ContactGroupPage'];

function ContactList({contacts}: {contacts: Loaded<ContactPage>}) {
  const {t} = useLocale();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const action = useAction();
  const add = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      await ok(api.POST('/v1/contacts', {body: {name, phone_number: phone}}));
      setName('');
      setPhone('');
      contacts.reload();
      return t.contacts.added;
    });
  };
  const remove = (id: string) =>
    action.run(async () => {
      await ok(api.DELETE('/v1/contacts/{id}', {params: {path: {id}}}));
      contacts.reload();
    });
  return (
    <Section title={t.contacts.contacts}>
      <form onSubmit={add} class="inline">
        <Field label={t.contacts.name} name="contact_name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label={t.contacts.phone} name="contact_phone" type="tel" required value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />
        <button type="submit" class="primary" disabled={action.busy} data-testid="add-contact">{t.contacts.add}</button>
      </form>
      <Outcome problem={action.problem} notice={action.notice} />
      {!contacts.data && <Loading what={contacts} />}
      {contacts.data && contacts.data.data.length === 0 && <p>{t.contacts.empty}</p>}
      {contacts.data && contacts.data.data.length > 0 && (
        <DataTable caption={t.contacts.contacts} head={[t.contacts.name, t.contacts.phone, t.actions]}>
          {contacts.data.data.map((c) => (
            <tr key={c.id} data-testid="contact-row">
              <td>{c.name}</td>
              <td>{c.phone_number}</td>
              <td>
                <button type="button" onClick={() => remove(c.id)} aria-label={`${t.contacts.remove} ${c.name ?? c.phone_number}`}>
                  {t.contacts.remove}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}

function Groups({groups, contacts}: {groups: Loaded<GroupPage>; contacts: ContactPage['data']}) {
  const {t} = useLocale();
  const {mode} = useSession();
  const live = mode === 'LIVE';
  const numbers = useLoad(() => (live ? ok(api.GET('/v1/phone-numbers')) : Promise.resolve(null)), [live]);
  const owned = (numbers.data?.data ?? []).filter((n) => n.status === 'ACTIVE').map((n) => n.phone_number);
  const [groupName, setGroupName] = useState('');
  const [groupId, setGroupId] = useState('');
  const [memberId, setMemberId] = useState('');
  const [from, setFrom] = useState(live ? '' : '+14165550100');
  const [body, setBody] = useState('');
  const [result, setResult] = useState<BroadcastResult | null>(null);
  const action = useAction();
  const list = groups.data?.data ?? [];
  const chosen = groupId || list[0]?.id || '';
  const sender = live ? from || owned[0] || '' : from;

  const create = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const made = await ok(api.POST('/v1/contact-groups', {body: {name: groupName}}));
      setGroupName('');
      setGroupId(made.id);
      groups.reload();
    });
  };
  const addMember = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      await ok(api.POST('/v1/contact-groups/{id}/members', {params: {path: {id: chosen}}, body: {contact_id: memberId || contacts[0]?.id}}));
      groups.reload();
      return t.done;
    });
  };
  const broadcast = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const sent = await ok(api.POST('/v1/contact-groups/{id}/messages', {
        params: {path: {id: chosen}},
        headers: {'Idempotency-Key': idempotencyKey()},
        body: {from: sender, body},
      }));
      setResult(sent as BroadcastResult);
      return t.contacts.broadcastSent;
    });
  };
  return (
    <Section title={t.contacts.groups}>
      <form onSubmit={create} class="inline">
        <Field label={t.contacts.groupName} name="group_name" required value={groupName} onInput={(e) => setGroupName(e.currentTarget.value)} />
        <button type="submit" disabled={action.busy} data-testid="new-group">{t.contacts.newGroup}</button>
      </form>
      {!groups.data && <Loading what={groups} />}
      {groups.data && list.length === 0 && <p>{t.contacts.noGroups}</p>}
      {list.length > 0 && (
        <>
          <DataTable caption={t.contacts.groups} head={[t.contacts.groupName, t.contacts.members]}>
            {list.map((g) => (
              <tr key={g.id} data-testid="group-row" data-members={g.member_count}>
                <td>{g.name}</td>
                <td class="number">{g.member_count}</td>
              </tr>
            ))}
          </DataTable>
          <Select label={t.contacts.groups} value={chosen} onChange={(e) => setGroupId(e.currentTarget.value)}
                  options={list.map((g): [string, string] => [g.id, g.name])} />
          {contacts.length > 0 && (
            <form onSubmit={addMember} class="inline">
              <Select label={t.contacts.member} value={memberId || contacts[0]?.id} onChange={(e) => setMemberId(e.currentTarget.value)}
                      options={contacts.map((c): [string, string] => [c.id, `${c.name ?? ''} ${c.phone_number ?? ''}`.trim()])} />
              <button type="submit" disabled={action.busy} data-testid="add-member">{t.contacts.addMember}</button>
            </form>
          )}
          <form onSubmit={broadcast}>
            <h3>{t.contacts.broadcast}</h3>
            {live ? (
              <Select label={t.contacts.broadcastFrom} value={sender} onChange={(e) => setFrom(e.currentTarget.value)}
                      options={owned.map((n): [string, string] => [n, n])} />
            ) : (
              <Field label={t.contacts.broadcastFrom} type="tel" required value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
            )}
            <TextArea label={t.contacts.broadcastBody} required rows={2} value={body} data-testid="broadcast-body" onInput={(e) => setBody(e.currentTarget.value)} />
            <button type="submit" class="primary" disabled={action.busy || !sender} data-testid="broadcast">{t.contacts.broadcast}</button>
          </form>
        </>
      )}
      <Outcome problem={action.problem} notice={action.notice} />
      {result && (
        <DataTable caption={t.contacts.results} head={[t.contacts.member, t.contacts.outcome, t.messages.error]}>
          {result.results.map((r) => (
            <tr key={r.to} data-testid="broadcast-result" data-status={r.status}>
              <td>{r.message_id ? <a href={`#/messages/${r.message_id}`}>{r.to}</a> : r.to}</td>
              <td>{t.statuses[r.status.toUpperCase()] ?? r.status}</td>
              <td>{r.error ?? ''}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}
