/**
 * A reply template as it reaches the answer (src/server/inbox/reply.ts, src/server/mail/acknowledgement.ts):
 * its placeholders filled from the lead in the template's language, and one signature.
 */
import { expect, test } from 'vitest';
import { templateForLead } from '../../src/server/inbox/reply';
import { composeReply } from '../../src/server/mail/acknowledgement';
import type { StoredSubmission } from '../../src/server/store/store';

const contact = { form: 'contact', fields: { firstName: 'Layla', lastName: 'Haddad', company: 'Gulf QA' } } as const;
const partner = {
  form: 'partner',
  fields: { name: 'Omar Ali', organization: 'Najd Training', servicesTypes: ['Training Courses', 'Inspection Services'] },
} as const;

test("{name}, {company} and {service} are filled from the lead; {service} in the template's language, empty for a contact message", () => {
  expect(templateForLead('Dear {name} of {company}: {service}.', contact, 'en')).toBe('Dear Layla Haddad of Gulf QA: .');
  const english = templateForLead('Dear {name} ({company}), about {service}.', partner, 'en');
  expect(english).toBe('Dear Omar Ali (Najd Training), about Training Courses, Inspection Services.');
  const arabic = templateForLead('{service}', partner, 'ar');
  expect(arabic).not.toContain('Training Courses');
  expect(arabic).toMatch(/[\u0600-\u06FF]/);
  // Other braces stay as they were.
  expect(templateForLead('{other} {name', contact, 'en')).toBe('{other} {name');
});

test("one signature: the company's is added unless the answer ends with one of its own", () => {
  const lead = { id: '0f0e0d0c-0000-4000-8000-000000000000', language: 'en' } as Pick<StoredSubmission, 'id' | 'language'>;
  const plain = composeReply(lead, 'Hello', 'Thank you.');
  expect(plain.text.match(/^-- $/gm)).toHaveLength(1);
  const signed = composeReply(lead, 'Hello', 'Thank you.\n-- \nHuda, sales');
  expect(signed.text).toBe('Thank you.\n-- \nHuda, sales');
  expect(signed.text.match(/^-- ?$/gm)).toHaveLength(1);
});
