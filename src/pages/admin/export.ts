/**
 * POST /admin/export?<filter>: the leads the inbox's current filter shows, oldest first: one
 * form's as CSV, both forms' as a ZIP of one CSV per form (../../server/lead-export.ts says why),
 * in the same columns as `npm run submissions -- export`; recorded in the audit log before the
 * first byte and completed with the row count (or how far it got, when the download was dropped).
 */
import type { APIRoute } from 'astro';
import { filterFromQuery, filterQuery } from '../../server/inbox/inbox-filter.ts';
import { leadExport } from '../../server/inbox/lead-export.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const staff = context.locals.staff!;
  const { filter, values } = filterFromQuery(context.url.searchParams, staff.email);
  // Held leads are not leads yet: the held tab offers no export, and none is made for it.
  if (filter.review === 'held')
    return new Response('Held leads are not exported: release them first.', {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  const filterText = filterQuery(values, 1);
  return leadExport(context.locals.app.stores.inbox, staff.email, filter, filterText ? `filter: ${filterText}` : '', new Date());
};
