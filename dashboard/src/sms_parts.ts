// The parts a text will be sent in, shown before sending: GSM-7 when every character is in the
// GSM 03.38 table (extension characters take two septets), otherwise UCS-2. The same rule as
// the API's (domain/sms_segments.cpp), whose segment_count on the sent message is the truth:
// both are held to one table of cases (tests/unit/sms_parts_cases.json, checked here by
// dashboard/test/sms_parts.test.mjs), and the browser journey compares them on a real send.
const basic =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const extension = '^{}\\[~]|€\f';

export interface Parts {
  encoding: 'GSM-7' | 'UCS-2';
  parts: number;
}

function partsFor(units: number, single: number, multi: number): number {
  if (units === 0) return 0;
  return units <= single ? 1 : Math.ceil(units / multi);
}

export function countParts(body: string): Parts {
  let septets = 0;
  let gsm = true;
  for (const character of body) {
    if (basic.includes(character)) septets += 1;
    else if (extension.includes(character)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return {encoding: 'GSM-7', parts: partsFor(septets, 160, 153)};
  return {encoding: 'UCS-2', parts: partsFor(body.length, 70, 67)};  // UTF-16 code units
}
