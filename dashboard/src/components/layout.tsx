// Every signed-in page's frame: the mode (LIVE or TEST, never mistaken: a banner in its own
// colour and words on every page), the language, sign-out, and the navigation.
import type {ComponentChildren} from 'preact';
import type {Mode} from '../api/client';
import {useLocale} from '../i18n';
import {routes, type Route} from '../routes';

interface LayoutProps {
  route: Route;
  mode: Mode;
  onMode: (mode: Mode) => void;
  onLanguage: () => void;
  onSignOut: () => void;
  accountName: string;
  children: ComponentChildren;
}

export function Layout({route, mode, onMode, onLanguage, onSignOut, accountName, children}: LayoutProps) {
  const {t} = useLocale();
  const live = mode === 'LIVE';
  return (
    <div class={`frame mode-${mode.toLowerCase()}`}>
      <a class="skip" href="#main">{t.skipToContent}</a>
      <header class="top">
        <div class="brand">
          <strong>{t.appName}</strong>
          <span class="account-name">{accountName}</span>
        </div>
        <div class="controls">
          <span class={`mode-tag mode-tag-${mode.toLowerCase()}`} data-testid="mode-tag">
            {live ? t.modeLive : t.modeTest}
          </span>
          <button type="button" onClick={() => onMode(live ? 'TEST' : 'LIVE')} data-testid="mode-switch">
            {live ? t.switchToTest : t.switchToLive}
          </button>
          <button type="button" onClick={onLanguage} lang={t.switchLanguage === 'English' ? 'en' : 'fr'}>
            {t.switchLanguage}
          </button>
          <button type="button" onClick={onSignOut} data-testid="sign-out">{t.signOut}</button>
        </div>
        <p class={`mode-banner mode-banner-${mode.toLowerCase()}`} data-testid="mode-banner">
          {live ? t.liveBanner : t.testBanner}
        </p>
      </header>
      <nav aria-label={t.nav.label}>
        <ul>
          {routes.map((r) => (
            <li key={r}>
              <a href={`#/${r}`} aria-current={route.page === r ? 'page' : undefined}>{t.nav[r]}</a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>{children}</main>
    </div>
  );
}
