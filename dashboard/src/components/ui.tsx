// The few building blocks every page uses: labelled fields, notices, tables that scroll on a
// phone, secrets shown once.
import type {ComponentChildren, JSX} from 'preact';
import {useState} from 'preact/hooks';
import {ApiProblem} from '../api/client';
import {useLocale} from '../i18n';

let nextId = 0;
export function useFieldId(prefix: string) {
  const [id] = useState(() => `${prefix}-${++nextId}`);
  return id;
}

type InputProps = JSX.IntrinsicElements['input'] & {label: string; hint?: string};

export function Field({label, hint, ...input}: InputProps) {
  const id = useFieldId('field');
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} aria-describedby={hintId} {...input} />
      {hint && <p id={hintId} class="hint">{hint}</p>}
    </div>
  );
}

type SelectProps = JSX.IntrinsicElements['select'] & {
  label: string;
  options: Array<[string, string]>;
};

export function Select({label, options, ...select}: SelectProps) {
  const id = useFieldId('select');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} {...select}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>{text}</option>
        ))}
      </select>
    </div>
  );
}

type TextAreaProps = JSX.IntrinsicElements['textarea'] & {label: string; hint?: string};

export function TextArea({label, hint, ...area}: TextAreaProps) {
  const id = useFieldId('text');
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} aria-describedby={hintId} {...area} />
      {hint && <p id={hintId} class="hint" aria-live="polite">{hint}</p>}
    </div>
  );
}

export function Checkbox({label, ...input}: JSX.IntrinsicElements['input'] & {label: string}) {
  const id = useFieldId('check');
  return (
    <div class="check">
      <input id={id} type="checkbox" {...input} />
      <label for={id}>{label}</label>
    </div>
  );
}

// The API's own words for a refusal, in the page's language (the API answers in it).
export function Problem({problem}: {problem: unknown}) {
  if (!problem) return null;
  const text =
    problem instanceof ApiProblem ? `${problem.message} (${problem.code})` : String(problem);
  return (
    <p class="notice problem" role="alert">
      {text}
    </p>
  );
}

export function Notice({children}: {children: ComponentChildren}) {
  if (!children) return null;
  return (
    <p class="notice success" role="status">
      {children}
    </p>
  );
}

export function Outcome({problem, notice}: {problem: unknown; notice?: string}) {
  return (
    <>
      <Problem problem={problem} />
      {notice && <Notice>{notice}</Notice>}
    </>
  );
}

export function Loading({what}: {what: {loading: boolean; error: unknown; reload: () => void}}) {
  const {t} = useLocale();
  if (what.error)
    return (
      <div>
        <Problem problem={what.error} />
        <button type="button" onClick={what.reload}>{t.retry}</button>
      </div>
    );
  return what.loading ? <p aria-busy="true">{t.loading}</p> : null;
}

// A table in a region that scrolls sideways on a narrow screen (and can be scrolled by keyboard).
export function DataTable({caption, head, children}: {
  caption: string;
  head: string[];
  children: ComponentChildren;
}) {
  return (
    <div class="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((title) => (
              <th key={title} scope="col">{title}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

// A secret shown once, with a button that copies it.
export function Secret({label, value}: {label: string; value: string}) {
  const {t} = useLocale();
  const [copied, setCopied] = useState(false);
  return (
    <div class="secret">
      <span class="secret-label">{label}</span>
      <code data-testid="secret">{value}</code>
      <button
        type="button"
        onClick={() => navigator.clipboard?.writeText(value).then(() => setCopied(true), () => {})}
      >
        {copied ? t.copied : t.copy}
      </button>
    </div>
  );
}

export function StatusBadge({status}: {status: string}) {
  const {t} = useLocale();
  return <span class={`badge badge-${status.toLowerCase()}`}>{t.statuses[status] ?? status}</span>;
}

// A titled part of a page. Not a landmark: the page's own regions are its header, navigation
// and main content.
export function Section({title, children}: {title: string; children: ComponentChildren}) {
  return (
    <div class="section">
      <h2>{title}</h2>
      {children}
    </div>
  );
}
