// The pages the links emailed to the owner open, signed in or not: a new password
// (#/reset/{token}), this browser past a sign-in lock (#/unlock/{token}), and a new sign-in
// email confirmed (#/email/{token}). Each link serves once; the API answers 410 LINK_EXPIRED
// for a used or late one.
import {useEffect, useState} from 'preact/hooks';
import {api, ok} from '../api/client';
import {Field, Outcome} from '../components/ui';
import {useAction} from '../hooks';
import {useLocale} from '../i18n';
import type {LinkPage} from '../routes';
import {Frame} from './sign_in';

interface Props {
  page: LinkPage;
  token: string;
  onLanguage: () => void;
}

export function EmailedLink({page, token, onLanguage}: Props) {
  if (page === 'reset') return <NewPassword token={token} onLanguage={onLanguage} />;
  return <FollowedLink page={page} token={token} onLanguage={onLanguage} />;
}

function ToSignIn() {
  const {t} = useLocale();
  return (
    <p>
      <a href="#/signin" data-testid="to-sign-in">{t.links.toSignIn}</a>
    </p>
  );
}

function NewPassword({token, onLanguage}: {token: string; onLanguage: () => void}) {
  const {t} = useLocale();
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      await ok(api.POST('/v1/password-resets/confirm', {body: {token, new_password: password}}));
      return t.links.passwordSet;
    });
  };
  return (
    <Frame title={t.links.resetTitle} onLanguage={onLanguage}>
      {!action.notice && (
        <form onSubmit={submit}>
          <Field label={t.links.newPassword} name="new_password" type="password" required minLength={10}
                 autoComplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          <button type="submit" class="primary" disabled={action.busy} data-testid="set-password">{t.links.setPassword}</button>
        </form>
      )}
      <Outcome problem={action.problem} notice={action.notice} />
      {action.notice && <ToSignIn />}
    </Frame>
  );
}

// An unlock or email-change link does its work as the page opens: nothing to type.
function FollowedLink({page, token, onLanguage}: Props) {
  const {t} = useLocale();
  const action = useAction();
  useEffect(() => {
    action.run(async () => {
      if (page === 'unlock') {
        await ok(api.POST('/v1/sessions/unlock/confirm', {body: {token}}));
        return t.links.browserTrusted;
      }
      const moved = await ok(api.POST('/v1/email-changes/confirm', {body: {token}}));
      return t.links.emailMoved(moved.account.email);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page, token]);
  return (
    <Frame title={page === 'unlock' ? t.links.unlockTitle : t.links.emailTitle} onLanguage={onLanguage}>
      {action.busy && <p aria-busy="true">{t.loading}</p>}
      <Outcome problem={action.problem} notice={action.notice} />
      <ToSignIn />
    </Frame>
  );
}
