// The dashboard: signed out, the sign-in and sign-up forms; signed in, the account's pages in
// the chosen mode and language.
import {useCallback, useEffect, useMemo, useState} from 'preact/hooks';
import {api, ok, setLanguage, setMode, signedInHere, type Mode} from './api/client';
import {Layout} from './components/layout';
import {initialLanguage, LocaleContext, localeFor, type Language} from './i18n';
import {SignIn, SignUp} from './pages/sign_in';
import {Overview} from './pages/overview';
import {Messages} from './pages/messages';
import {Numbers} from './pages/numbers';
import {Compliance} from './pages/compliance';
import {Contacts} from './pages/contacts';
import {Keys} from './pages/keys';
import {Webhooks} from './pages/webhooks';
import {Apps} from './pages/apps';
import {Security} from './pages/security';
import {EmailedLink} from './pages/links';
import {isLinkPage, parseRoute, type Route} from './routes';
import {SessionContext, type AccountDocument, type SessionState} from './session';

function initialMode(): Mode {
  return sessionStorage.getItem('mode') === 'LIVE' ? 'LIVE' : 'TEST';
}

export function App() {
  const [language, setLang] = useState<Language>(initialLanguage);
  const [mode, setModeState] = useState<Mode>(initialMode);
  const [route, setRoute] = useState<Route>(() => parseRoute(window.location.hash));
  const [document_, setDocument] = useState<AccountDocument | null>(null);
  const [checked, setChecked] = useState(false);
  const [ended, setEnded] = useState(false);
  const locale = useMemo(() => localeFor(language), [language]);

  setLanguage(language);
  setMode(mode);
  useEffect(() => {
    document.documentElement.lang = language;
    document.title = locale.t.appName;
    sessionStorage.setItem('language', language);
  }, [language, locale]);

  useEffect(() => {
    const follow = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  // The account as LIVE sees it: balances and limits are LIVE's in either mode.
  const refreshAccount = useCallback(async () => {
    const me = await ok(api.GET('/v1/accounts/me', {headers: {'X-Dashboard-Mode': 'LIVE'}}));
    setDocument(me);
  }, []);

  useEffect(() => {
    if (!signedInHere()) {
      setChecked(true);
      return;
    }
    refreshAccount().then(
      () => setChecked(true),
      () => setChecked(true),
    );
  }, [refreshAccount]);

  useEffect(() => {
    const onEnded = () => {
      if (document_) setEnded(true);
      setDocument(null);
    };
    window.addEventListener('session-ended', onEnded);
    return () => window.removeEventListener('session-ended', onEnded);
  }, [document_]);

  const chooseMode = (next: Mode) => {
    sessionStorage.setItem('mode', next);
    setModeState(next);
  };

  const signOut = async () => {
    await api.DELETE('/v1/sessions/current');
    setDocument(null);
    setEnded(false);
    window.location.hash = '#/signin';
  };

  const signedIn = async () => {
    setEnded(false);
    await refreshAccount();
    window.location.hash = '#/overview';
  };

  const toggleLanguage = () => setLang(language === 'en' ? 'fr' : 'en');

  if (!checked) return null;
  // A link from an email opens its page whether or not this browser is signed in.
  if (isLinkPage(route.page)) {
    return (
      <LocaleContext.Provider value={locale}>
        <EmailedLink page={route.page} token={route.id ?? ''} onLanguage={toggleLanguage} />
      </LocaleContext.Provider>
    );
  }
  if (!document_) {
    return (
      <LocaleContext.Provider value={locale}>
        {route.page === 'signup' ? (
          <SignUp onLanguage={toggleLanguage} onSignedIn={signedIn} />
        ) : (
          <SignIn onLanguage={toggleLanguage} onSignedIn={signedIn} ended={ended} />
        )}
      </LocaleContext.Provider>
    );
  }

  const session: SessionState = {
    accountId: document_.account.id,
    document: document_,
    mode,
    refreshAccount,
  };
  const page = route.page === 'signin' || route.page === 'signup' || isLinkPage(route.page) ? 'overview' : route.page;
  return (
    <LocaleContext.Provider value={locale}>
      <SessionContext.Provider value={session}>
        <Layout
          route={{...route, page}}
          mode={mode}
          onMode={chooseMode}
          onLanguage={toggleLanguage}
          onSignOut={signOut}
          accountName={document_.account.name}
        >
          {/* Keyed by mode: a page's state never carries over from one mode to the other. */}
          <div key={`${mode}-${page}`}>
            {page === 'overview' && <Overview />}
            {page === 'messages' && <Messages id={route.id} />}
            {page === 'numbers' && <Numbers />}
            {page === 'compliance' && <Compliance />}
            {page === 'contacts' && <Contacts />}
            {page === 'keys' && <Keys />}
            {page === 'webhooks' && <Webhooks />}
            {page === 'apps' && <Apps />}
            {page === 'security' && <Security />}
          </div>
        </Layout>
      </SessionContext.Provider>
    </LocaleContext.Provider>
  );
}
