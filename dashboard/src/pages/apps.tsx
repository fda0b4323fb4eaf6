// Connected apps (OAuth grants) of the page's mode, and disconnecting one.
import {api, ok} from '../api/client';
import {DataTable, Loading, Outcome} from '../components/ui';
import {useAction, useLoad} from '../hooks';
import {useLocale} from '../i18n';

export function Apps() {
  const {t, date} = useLocale();
  const apps = useLoad(() => ok(api.GET('/v1/connected-apps')), []);
  const action = useAction();
  const end = (id: string) => {
    if (!window.confirm(t.confirm)) return;
    action.run(async () => {
      await ok(api.DELETE('/v1/connected-apps/{id}', {params: {path: {id}}}));
      apps.reload();
      return t.apps.revoked;
    });
  };
  return (
    <>
      <h1>{t.apps.title}</h1>
      <p>{t.apps.intro}</p>
      <Outcome problem={action.problem} notice={action.notice} />
      {!apps.data && <Loading what={apps} />}
      {apps.data && apps.data.data.length === 0 && <p>{t.apps.empty}</p>}
      {apps.data && apps.data.data.length > 0 && (
        <DataTable caption={t.apps.title} head={[t.apps.app, t.apps.scope, t.apps.since, t.actions]}>
          {apps.data.data.map((a) => (
            <tr key={a.id}>
              <td>{a.client_name}</td>
              <td class="permissions">{Object.entries(a.permissions).map(([r, l]) => `${r}:${l}`).join(' ')}</td>
              <td>{date(a.created_at)}</td>
              <td>
                <button type="button" onClick={() => end(a.id)} aria-label={`${t.apps.revoke} ${a.client_name}`}>{t.apps.revoke}</button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
