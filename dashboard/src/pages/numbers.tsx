// Phone numbers: search by area code, buy, release; rent and status of those held. Numbers are
// LIVE things: buying and releasing need the LIVE mode.
import {useState} from 'preact/hooks';
import {api, ok} from '../api/client';
import {DataTable, Field, Loading, Outcome, Section, StatusBadge} from '../components/ui';
import {useAction, useLoad} from '../hooks';
import {useLocale} from '../i18n';
import {useSession} from '../session';
import type {components} from '../api/schema';

type SearchResult = components['schemas']['PhoneNumberSearchResult'];

export function Numbers() {
  const {t, money, date} = useLocale();
  const {mode, refreshAccount} = useSession();
  const live = mode === 'LIVE';
  const owned = useLoad(() => ok(api.GET('/v1/phone-numbers')), []);
  const [areaCode, setAreaCode] = useState('');
  const [results, setResults] = useState<SearchResult[] | null>(null);
  const action = useAction();

  const search = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      setResults(await ok(api.GET('/v1/phone-numbers/search', {params: {query: {area_codes: areaCode, limit: 5}}})));
    });
  };
  const buy = (phone: string) =>
    action.run(async () => {
      await ok(api.POST('/v1/phone-numbers', {body: {phone_number: phone}}));
      setResults(null);
      owned.reload();
      await refreshAccount();
      return t.numbers.bought(phone);
    });
  const release = (id: string, phone: string) => {
    if (!window.confirm(t.numbers.confirmRelease(phone))) return;
    action.run(async () => {
      await ok(api.DELETE('/v1/phone-numbers/{id}', {params: {path: {id}}}));
      owned.reload();
      await refreshAccount();
      return t.numbers.released(phone);
    });
  };

  return (
    <>
      <h1>{t.numbers.title}</h1>
      {!live && <p class="notice warning" role="status">{t.numbers.liveOnly}</p>}
      <Outcome problem={action.problem} notice={action.notice} />
      <Section title={t.numbers.search}>
        <form onSubmit={search} class="inline">
          <Field label={t.numbers.areaCode} name="area_code" inputMode="numeric" pattern="[0-9]{3}" required value={areaCode}
                 onInput={(e) => setAreaCode(e.currentTarget.value)} />
          <button type="submit" disabled={action.busy} data-testid="search-numbers">{t.numbers.find}</button>
        </form>
        {results && results.length === 0 && <p>{t.numbers.noResults}</p>}
        {results && results.length > 0 && (
          <DataTable caption={t.numbers.results} head={[t.numbers.number, t.numbers.region, t.numbers.rent, t.actions]}>
            {results.map((n) => (
              <tr key={n.phone_number}>
                <td>{n.phone_number}</td>
                <td>{n.region}</td>
                <td class="number">{money(n.monthly_cost_cents)}</td>
                <td>
                  <button type="button" class="primary" disabled={!live || action.busy}
                          onClick={() => buy(n.phone_number)} data-testid="buy" aria-label={`${t.numbers.buy} ${n.phone_number}`}>
                    {t.numbers.buy} ({money(n.upfront_cost_cents)})
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>
      <Section title={t.numbers.owned}>
        {!owned.data && <Loading what={owned} />}
        {owned.data && owned.data.data.length === 0 && <p>{t.numbers.empty}</p>}
        {owned.data && owned.data.data.length > 0 && (
          <DataTable caption={t.numbers.owned} head={[t.numbers.number, t.status, t.numbers.region, t.numbers.rent, t.created, t.actions]}>
            {owned.data.data.map((n) => (
              <tr key={n.id} data-testid="owned-number" data-number={n.phone_number} data-status={n.status}>
                <td>{n.phone_number}</td>
                <td><StatusBadge status={n.status} /></td>
                <td>{n.region}</td>
                <td class="number">{money(n.monthly_cost_cents)}</td>
                <td>{date(n.provisioned_at)}</td>
                <td>
                  {n.status !== 'RELEASED' && (
                    <button type="button" disabled={!live || action.busy} onClick={() => release(n.id, n.phone_number)} data-testid="release"
                            aria-label={`${t.numbers.release} ${n.phone_number}`}>
                      {t.numbers.release}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>
    </>
  );
}
