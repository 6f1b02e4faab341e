/**
 * The list's query as it travels in the address (src/server/inbox/inbox-filter.ts): the "Mine"
 * tab resolved with the session's e-mail (never an address's), the held tab, and both written
 * back for links, the export, the selection and a lead page's Previous and Next.
 */
import { describe, expect, test } from 'vitest';
import { NEEDS_WORK, filterFromQuery, filterQuery, listHref } from '../../src/server/inbox/inbox-filter';

const read = (query: string, me = 'huda@globaq.example') => filterFromQuery(new URLSearchParams(query), me);

describe('Mine', () => {
  test('mine=1 is the leads assigned to the signed-in staff member not done (answered too) or carrying a follow-up date, and is written back', () => {
    const { filter, values } = read('mine=1');
    expect(filter).toEqual({ statuses: [...NEEDS_WORK, 'answered'], orFollowUp: true, assignedTo: 'huda@globaq.example' });
    expect(values.mine).toBe('1');
    expect(filterQuery(values)).toBe('mine=1');
    expect(listHref({ ...values, form: 'partner' })).toBe('/admin?mine=1&form=partner');
  });

  test('it combines with a status and the other filters', () => {
    const { filter, values } = read('mine=1&status=answered&form=contact&q=Riyadh');
    expect(filter).toEqual({ status: 'answered', form: 'contact', search: 'Riyadh', assignedTo: 'huda@globaq.example' });
    expect(filterQuery(values)).toBe('status=answered&mine=1&form=contact&q=Riyadh');
  });

  test('an address never names whose leads: no assignee in the query is read, and without a session e-mail Mine is dropped', () => {
    expect(read('mine=1&assignedTo=omar@globaq.example').filter.assignedTo).toBe('huda@globaq.example');
    expect(read('assignedTo=omar@globaq.example').filter.assignedTo).toBeUndefined();
    expect(read('mine=1', '').filter.assignedTo).toBeUndefined();
    expect(read('mine=1', '').values.mine).toBe('');
  });

  test('any other value of mine is no filter', () => {
    for (const query of ['mine=0', 'mine=yes', 'mine=', 'mine=11']) {
      expect(read(query).filter.assignedTo, query).toBeUndefined();
      expect(read(query).values.mine, query).toBe('');
    }
  });
});

describe('the held tab', () => {
  test('status=held is the held leads, whatever their status, and is written back', () => {
    const { filter, values } = read('status=held&form=partner');
    expect(filter).toEqual({ review: 'held', form: 'partner' });
    expect(filterQuery(values)).toBe('status=held&form=partner');
  });

  test("held leads are nobody's: Mine does not apply to them", () => {
    const { filter, values } = read('status=held&mine=1');
    expect(filter).toEqual({ review: 'held' });
    expect(values.mine).toBe('');
  });

  test('the other tabs never include held leads; Spam is one status', () => {
    expect(read('').filter).toEqual({ statuses: NEEDS_WORK });
    expect(read('status=spam').filter).toEqual({ status: 'spam' });
    expect(read('status=all').filter).toEqual({});
    expect(read('status=HELD').filter).toEqual({ statuses: NEEDS_WORK });
  });
});

describe('Assigned to', () => {
  test("assigned=nobody keeps the leads assigned to nobody, assigned=<e-mail> that staff member's; both written back", () => {
    expect(read('assigned=nobody').filter.assignedTo).toBeNull();
    const { filter, values } = read('status=all&assigned=omar@globaq.example');
    expect(filter.assignedTo).toBe('omar@globaq.example');
    expect(filterQuery(values)).toBe('status=all&assigned=omar%40globaq.example');
  });

  test('Mine wins over it, and anything else is no filter', () => {
    expect(read('mine=1&assigned=nobody').filter.assignedTo).toBe('huda@globaq.example');
    expect(read('mine=1&assigned=nobody').values.assigned).toBe('');
    for (const query of ['assigned=', 'assigned=anyone', 'assigned=a b@c'])
      expect(read(query).filter.assignedTo, query).toBeUndefined();
  });
});
