// The account at a glance: balance, warnings, sending, the month's spend; top-ups with the
// sandbox card and the owner phone's verification (both LIVE, whatever the page's mode).
import {useState} from 'preact/hooks';
import {api, idempotencyKey, ok} from '../api/client';
import {DataTable, Field, Loading, Outcome, Section, Select, StatusBadge} from '../components/ui';
import {useAction, useLoad} from '../hooks';
import {useLocale} from '../i18n';
import {useSession} from '../session';

const LIVE = {'X-Dashboard-Mode': 'LIVE'} as const;

export function Overview() {
  const {t, money, dateTime} = useLocale();
  const {document: doc, accountId, refreshAccount} = useSession();
  const account = doc.account;
  const pending = account.status === 'PENDING_PAYMENT';
  return (
    <>
      <h1>{t.overview.title}</h1>
      {pending && <p class="notice warning" role="status">{t.overview.pendingPayment}</p>}
      {account.status === 'SUSPENDED' && <p class="notice warning" role="status">{t.overview.suspended}</p>}
      {account.low_balance && <p class="notice warning" role="status">{t.overview.lowBalance}</p>}
      <dl class="figures">
        <div>
          <dt>{t.overview.balance}</dt>
          <dd data-testid="balance">{money(account.balance_cents)}</dd>
        </div>
        <div>
          <dt>{t.overview.monthSpend}</dt>
          <dd>{money(account.spent_this_month_cents)}</dd>
        </div>
        <div>
          <dt>{t.overview.rent}</dt>
          <dd>{money(account.monthly_rent_cents)}</dd>
        </div>
        <div>
          <dt>{t.overview.accountStatus}</dt>
          <dd><StatusBadge status={account.status} /></dd>
        </div>
        <div>
          <dt>{t.overview.sending}</dt>
          <dd>
            {account.sending_paused_until
              ? `${t.overview.sendingPaused} (${account.sending_pause_reason ?? ''}) → ${dateTime(account.sending_paused_until)}`
              : t.overview.sendingActive}
          </dd>
        </div>
      </dl>
      <p class="hint">{t.overview.testModeNote}</p>
      <TopUp accountId={accountId} onDone={refreshAccount} />
      <OwnerPhone accountId={accountId} verified={account.verified_phone} onDone={refreshAccount} />
      <Ledger accountId={accountId} />
    </>
  );
}

function TopUp({accountId, onDone}: {accountId: string; onDone: () => Promise<void>}) {
  const {t, money} = useLocale();
  const [dollars, setDollars] = useState('20');
  const [token, setToken] = useState('tok_sandbox_ok');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const cents = Math.round(Number(dollars.replace(',', '.')) * 100);
      await ok(api.POST('/v1/accounts/{id}/top-ups', {
        params: {path: {id: accountId}},
        headers: {...LIVE, 'Idempotency-Key': idempotencyKey()},
        body: {amount_cents: cents, payment_token: token},
      }));
      await onDone();
      return t.overview.toppedUp(money(cents));
    });
  };
  return (
    <Section title={t.overview.topUp}>
      <form onSubmit={submit} class="inline">
        <Field label={t.overview.amount} name="amount" inputMode="decimal" required value={dollars}
               onInput={(e) => setDollars(e.currentTarget.value)} />
        <Select label={t.overview.card} value={token} onChange={(e) => setToken(e.currentTarget.value)}
                options={[['tok_sandbox_ok', t.overview.cardOk], ['tok_sandbox_declined', t.overview.cardDeclined]]} />
        <button type="submit" class="primary" disabled={action.busy} data-testid="top-up">{t.overview.topUp}</button>
      </form>
      <Outcome problem={action.problem} notice={action.notice} />
    </Section>
  );
}

function OwnerPhone({accountId, verified, onDone}: {accountId: string; verified: string | null; onDone: () => Promise<void>}) {
  const {t} = useLocale();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const action = useAction();
  const path = {params: {path: {id: accountId}}, headers: LIVE};
  const sendCode = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      await ok(api.POST('/v1/accounts/{id}/phone-verification', {...path, body: {phone_number: phone}}));
      setSent(true);
      return t.overview.codeSent;
    });
  };
  const confirm = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      await ok(api.POST('/v1/accounts/{id}/phone-verification', {...path, body: {phone_number: phone, code}}));
      await onDone();
      return t.done;
    });
  };
  return (
    <Section title={t.overview.ownerPhone}>
      {verified ? (
        <p data-testid="owner-phone">{t.overview.ownerPhoneVerified(verified)}</p>
      ) : (
        <>
          <p>{t.overview.ownerPhoneMissing}</p>
          <form onSubmit={sendCode} class="inline">
            <Field label={t.overview.phoneNumber} name="owner_phone" type="tel" required placeholder="+14165550123" value={phone}
                   onInput={(e) => setPhone(e.currentTarget.value)} />
            <button type="submit" disabled={action.busy} data-testid="send-code">{t.overview.sendCode}</button>
          </form>
          {sent && (
            <form onSubmit={confirm} class="inline">
              <Field label={t.overview.code} name="code" inputMode="numeric" autoComplete="one-time-code" required value={code}
                     onInput={(e) => setCode(e.currentTarget.value)} />
              <button type="submit" class="primary" disabled={action.busy} data-testid="confirm-code">{t.overview.confirmCode}</button>
            </form>
          )}
        </>
      )}
      <Outcome problem={action.problem} notice={action.notice} />
    </Section>
  );
}

function Ledger({accountId}: {accountId: string}) {
  const {t, money, dateTime} = useLocale();
  const {document: doc} = useSession();
  const ledger = useLoad(
    () => ok(api.GET('/v1/accounts/{id}/transactions', {params: {path: {id: accountId}, query: {limit: 10}}, headers: LIVE})),
    [accountId, doc.account.balance_cents],
  );
  return (
    <Section title={t.overview.recent}>
      <Loading what={ledger} />
      {ledger.data && (
        <DataTable caption={t.overview.recent} head={[t.created, t.overview.entry, t.overview.entryAmount, t.overview.entryBalance]}>
          {ledger.data.data.map((entry) => (
            <tr key={entry.id}>
              <td>{dateTime(entry.created_at)}</td>
              <td>{entry.description}</td>
              <td class="number">{money(entry.amount_cents)}</td>
              <td class="number">{money(entry.balance_after_cents)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}
