// The page's language: the browser's (French for any fr-*), switchable, remembered for the tab
// only (sessionStorage: nothing of the session is ever kept in localStorage). Amounts are CAD in
// each locale's own format: $12.34 in English, 12,34 $ in French.
import {createContext} from 'preact';
import {useContext} from 'preact/hooks';
import {en, type Strings} from './en';
import {fr} from './fr';

export type Language = 'en' | 'fr';

export function initialLanguage(): Language {
  const chosen = sessionStorage.getItem('language');
  if (chosen === 'en' || chosen === 'fr') return chosen;
  return navigator.language.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

export interface Locale {
  language: Language;
  t: Strings;
  money: (cents: number) => string;
  dateTime: (iso: string | null | undefined) => string;
  date: (iso: string | null | undefined) => string;
}

export function localeFor(language: Language): Locale {
  const tag = language === 'fr' ? 'fr-CA' : 'en-CA';
  const currency = new Intl.NumberFormat(tag, {style: 'currency', currency: 'CAD'});
  const dateTime = new Intl.DateTimeFormat(tag, {dateStyle: 'medium', timeStyle: 'medium'});
  const date = new Intl.DateTimeFormat(tag, {dateStyle: 'medium'});
  return {
    language,
    t: language === 'fr' ? fr : en,
    money: (cents) => currency.format(cents / 100),
    dateTime: (iso) => (iso ? dateTime.format(new Date(iso)) : '—'),
    date: (iso) => (iso ? date.format(new Date(iso)) : '—'),
  };
}

export const LocaleContext = createContext<Locale>(localeFor('en'));
export const useLocale = () => useContext(LocaleContext);
