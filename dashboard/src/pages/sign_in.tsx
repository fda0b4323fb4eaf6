// Signing in (POST /v1/sessions: the session's keys come back as HttpOnly cookies) and signing
// up (POST /v1/accounts, then the same sign-in). A forgotten password is reset by an emailed
// link (POST /v1/password-resets); a lock of a stranger's making is passed by an emailed link
// that proves this browser (POST /v1/sessions/unlock; docs/dashboard.md "Account security").
import {useState} from 'preact/hooks';
import {api, ApiProblem, ok} from '../api/client';
import {Checkbox, Field, Outcome, Problem} from '../components/ui';
import {useAction} from '../hooks';
import {useLocale} from '../i18n';

interface Props {
  onLanguage: () => void;
  onSignedIn: () => Promise<void>;
}

export function Frame({title, onLanguage, children}: {title: string; onLanguage: () => void; children: preact.ComponentChildren}) {
  const {t} = useLocale();
  return (
    <div class="signed-out">
      <header class="top">
        <strong>{t.appName}</strong>
        <button type="button" onClick={onLanguage}>{t.switchLanguage}</button>
      </header>
      <main id="main" class="card narrow">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}

async function signIn(email: string, password: string) {
  await ok(api.POST('/v1/sessions', {body: {email, password}}));
}

export function SignIn({onLanguage, onSignedIn, ended}: Props & {ended: boolean}) {
  const {t} = useLocale();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [forgot, setForgot] = useState(false);
  // Set when wrong passwords locked this email for browsers the owner never proved.
  const [unlockable, setUnlockable] = useState(false);
  const action = useAction();
  const mail = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    setUnlockable(false);
    action.run(async () => {
      try {
        await signIn(email, password);
      } catch (problem) {
        if (problem instanceof ApiProblem && problem.status === 401) throw new Error(t.signIn.failed);
        if (problem instanceof ApiProblem && problem.details?.reason === 'password_locked') {
          setUnlockable(problem.details.unlock === 'email_link');
          throw new Error(t.signIn.locked(Number(problem.details.retry_after_seconds)));
        }
        throw problem;
      }
      await onSignedIn();
    });
  };
  const sendUnlockLink = () =>
    mail.run(async () => {
      await ok(api.POST('/v1/sessions/unlock', {body: {email}}));
      return t.signIn.unlockSent;
    });
  const sendResetLink = (event: Event) => {
    event.preventDefault();
    mail.run(async () => {
      await ok(api.POST('/v1/password-resets', {body: {email}}));
      return t.signIn.resetSent;
    });
  };
  if (forgot) {
    return (
      <Frame title={t.signIn.forgotTitle} onLanguage={onLanguage}>
        <p>{t.signIn.forgotIntro}</p>
        <form onSubmit={sendResetLink}>
          <Field label={t.signIn.email} name="email" type="email" autoComplete="username" required value={email}
                 onInput={(e) => setEmail(e.currentTarget.value)} />
          <button type="submit" class="primary" disabled={mail.busy} data-testid="send-reset">{t.signIn.sendReset}</button>
        </form>
        <Outcome problem={mail.problem} notice={mail.notice} />
        <p>
          <button type="button" class="link" onClick={() => setForgot(false)}>{t.signIn.backToSignIn}</button>
        </p>
      </Frame>
    );
  }
  return (
    <Frame title={t.signIn.title} onLanguage={onLanguage}>
      {ended && <p class="notice" role="status">{t.signIn.expired}</p>}
      <form onSubmit={submit}>
        <Field label={t.signIn.email} name="email" type="email" autoComplete="username" required value={email}
               onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field label={t.signIn.password} name="password" type="password" autoComplete="current-password" required
               value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <button type="submit" class="primary" disabled={action.busy} data-testid="sign-in">{t.signIn.submit}</button>
      </form>
      {action.problem instanceof Error && !(action.problem instanceof ApiProblem) ? (
        <p class="notice problem" role="alert">{action.problem.message}</p>
      ) : (
        <Problem problem={action.problem} />
      )}
      {unlockable && (
        <div class="notice">
          <p>{t.signIn.unlockIntro}</p>
          <button type="button" onClick={sendUnlockLink} disabled={mail.busy} data-testid="send-unlock">
            {t.signIn.sendUnlock}
          </button>
        </div>
      )}
      <Outcome problem={mail.problem} notice={mail.notice} />
      <p>
        <button type="button" class="link" onClick={() => setForgot(true)} data-testid="forgot">{t.signIn.forgot}</button>
      </p>
      <p>
        {t.signIn.noAccount} <a href="#/signup">{t.signIn.toSignUp}</a>
      </p>
    </Frame>
  );
}

export function SignUp({onLanguage, onSignedIn}: Props) {
  const {t} = useLocale();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [terms, setTerms] = useState(false);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      await ok(api.POST('/v1/accounts', {body: {name, email, password, accept_terms: terms as true}}));
      await signIn(email, password);
      await onSignedIn();
    });
  };
  return (
    <Frame title={t.signUp.title} onLanguage={onLanguage}>
      <form onSubmit={submit}>
        <Field label={t.signUp.name} name="name" required value={name} autoComplete="organization"
               onInput={(e) => setName(e.currentTarget.value)} />
        <Field label={t.signUp.email} name="email" type="email" required value={email} autoComplete="email"
               onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field label={t.signUp.password} name="password" type="password" required minLength={10} value={password}
               autoComplete="new-password" onInput={(e) => setPassword(e.currentTarget.value)} />
        <Checkbox label={t.signUp.terms} name="accept_terms" required checked={terms}
                  onChange={(e) => setTerms(e.currentTarget.checked)} />
        <button type="submit" class="primary" disabled={action.busy} data-testid="sign-up">{t.signUp.submit}</button>
      </form>
      <Outcome problem={action.problem} />
      <p>
        {t.signUp.haveAccount} <a href="#/signin">{t.signUp.toSignIn}</a>
      </p>
    </Frame>
  );
}
