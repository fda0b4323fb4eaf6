// CASL records in the page's mode: consents (record, look up, revoke), opt-outs, and a CSV
// import of consents with its attestation and counts (recorded as coming from the dashboard).
import {useState} from 'preact/hooks';
import {api, ok} from '../api/client';
import type {components} from '../api/schema';
import {Checkbox, DataTable, Field, Loading, Outcome, Section, Select} from '../components/ui';
import {useAction, useLoad} from '../hooks';
import {useLocale} from '../i18n';

type Consent = components['schemas']['Consent'];
type ConsentBatch = components['schemas']['ConsentBatch'];

export function Compliance() {
  const {t} = useLocale();
  return (
    <>
      <h1>{t.compliance.title}</h1>
      <RecordConsent />
      <LookUp />
      <ImportCsv />
      <OptOuts />
    </>
  );
}

function RecordConsent() {
  const {t} = useLocale();
  const [phone, setPhone] = useState('');
  const [type, setType] = useState<'express' | 'implied'>('express');
  const [source, setSource] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      await ok(api.POST('/v1/compliance/consents', {
        body: {phone_number: phone, consent_type: type, source_description: source || undefined, relationship_type: type === 'implied' ? 'purchase' : undefined},
      }));
      return t.compliance.recorded;
    });
  };
  return (
    <Section title={t.compliance.record}>
      <form onSubmit={submit} class="inline">
        <Field label={t.compliance.phone} type="tel" required value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />
        <Select label={t.compliance.type} value={type} onChange={(e) => setType(e.currentTarget.value as 'express' | 'implied')}
                options={[['express', t.compliance.express], ['implied', t.compliance.implied]]} />
        <Field label={t.compliance.source} value={source} onInput={(e) => setSource(e.currentTarget.value)} />
        <button type="submit" class="primary" disabled={action.busy}>{t.save}</button>
      </form>
      <Outcome problem={action.problem} notice={action.notice} />
    </Section>
  );
}

function LookUp() {
  const {t, date} = useLocale();
  const [phone, setPhone] = useState('');
  const [found, setFound] = useState<Consent[] | null>(null);
  const action = useAction();
  const look = (event?: Event) => {
    event?.preventDefault();
    action.run(async () => {
      const page = await ok(api.GET('/v1/compliance/consents', {params: {query: {phone_number: phone}}}));
      setFound(page.data);
    });
  };
  const revoke = () =>
    action.run(async () => {
      await ok(api.DELETE('/v1/compliance/consents/{phone}', {params: {path: {phone}}}));
      const page = await ok(api.GET('/v1/compliance/consents', {params: {query: {phone_number: phone}}}));
      setFound(page.data);
      return t.compliance.revoked;
    });
  return (
    <Section title={t.compliance.lookUp}>
      <form onSubmit={look} class="inline">
        <Field label={t.compliance.phone} type="tel" required value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />
        <button type="submit" disabled={action.busy}>{t.compliance.lookUp}</button>
      </form>
      <Outcome problem={action.problem} notice={action.notice} />
      {found && found.length === 0 && <p>{t.compliance.noConsent}</p>}
      {found && found.length > 0 && (
        <>
          <DataTable caption={t.compliance.lookUpResult} head={[t.compliance.type, t.status, t.created, t.compliance.expires, t.compliance.source]}>
            {found.map((c) => (
              <tr key={c.id}>
                <td>{c.consentType === 'EXPRESS' ? t.compliance.express : t.compliance.implied}</td>
                <td>{c.status}</td>
                <td>{date(c.grantedAt)}</td>
                <td>{date(c.expiresAt)}</td>
                <td>{c.sourceDescription}</td>
              </tr>
            ))}
          </DataTable>
          {found.some((c) => c.status === 'ACTIVE') && (
            <button type="button" onClick={revoke} disabled={action.busy}>{t.compliance.revoke}</button>
          )}
        </>
      )}
    </Section>
  );
}

function ImportCsv() {
  const {t} = useLocale();
  const [file, setFile] = useState<File | null>(null);
  const [type, setType] = useState<'express' | 'implied'>('express');
  const [source, setSource] = useState('');
  const [attested, setAttested] = useState(false);
  const [batch, setBatch] = useState<ConsentBatch | null>(null);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    if (!file) return;
    action.run(async () => {
      const text = await file.text();
      const made = await ok(api.POST('/v1/compliance/consent-batches', {
        params: {query: {attested: 'true', file_name: file.name, consent_type: type, source_description: source || undefined}},
        body: text,
        bodySerializer: (body: unknown) => body as string,
        headers: {'Content-Type': 'text/csv'},
      }));
      setBatch(made as ConsentBatch);
    });
  };
  const counts = batch?.counts as Record<string, number> | undefined;
  return (
    <Section title={t.compliance.import}>
      <form onSubmit={submit}>
        <div class="field">
          <label for="consent-csv">{t.compliance.file}</label>
          <input id="consent-csv" name="consent_csv" type="file" accept=".csv,text/csv" required
                 onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
        </div>
        <Select label={t.compliance.defaultType} value={type} onChange={(e) => setType(e.currentTarget.value as 'express' | 'implied')}
                options={[['express', t.compliance.express], ['implied', t.compliance.implied]]} />
        <Field label={t.compliance.sourceDescription} name="source_description" value={source} onInput={(e) => setSource(e.currentTarget.value)} />
        <Checkbox label={t.compliance.attest} name="attested" required checked={attested} onChange={(e) => setAttested(e.currentTarget.checked)} />
        <button type="submit" class="primary" disabled={action.busy || !attested} data-testid="import">{t.compliance.upload}</button>
      </form>
      <Outcome problem={action.problem} />
      {batch && counts && (
        <div data-testid="batch-result" data-source={batch.source}>
          <DataTable caption={`${t.compliance.batch}: ${batch.id}`} head={Object.keys(t.compliance.counts).map((k) => t.compliance.counts[k as keyof typeof t.compliance.counts])}>
            <tr>
              {Object.keys(t.compliance.counts).map((k) => (
                <td key={k} class="number" data-count={k}>{counts[k] ?? 0}</td>
              ))}
            </tr>
          </DataTable>
        </div>
      )}
    </Section>
  );
}

function OptOuts() {
  const {t, dateTime} = useLocale();
  const optOuts = useLoad(() => ok(api.GET('/v1/compliance/opt-outs', {params: {query: {limit: 50}}})), []);
  return (
    <Section title={t.compliance.optOuts}>
      {!optOuts.data && <Loading what={optOuts} />}
      {optOuts.data && optOuts.data.data.length === 0 && <p>{t.compliance.noOptOuts}</p>}
      {optOuts.data && optOuts.data.data.length > 0 && (
        <DataTable caption={t.compliance.optOuts} head={[t.compliance.phone, t.messages.to, t.compliance.keyword, t.created]}>
          {optOuts.data.data.map((o) => (
            <tr key={o.id}>
              <td>{o.phoneNumber}</td>
              <td>{o.fromNumber}</td>
              <td>{o.keywordUsed}</td>
              <td>{dateTime(o.optedOutAt)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}
