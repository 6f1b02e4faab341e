/** Every request to the staff inbox (/admin) passes its guard first (src/server/inbox/inbox.ts); nothing else is touched. */
import { defineMiddleware } from 'astro:middleware';
import { guardAdmin, isAdminPath } from './server/inbox/inbox.ts';

export const onRequest = defineMiddleware((context, next) =>
  !context.isPrerendered && isAdminPath(context.url.pathname) ? guardAdmin(context, next) : next(),
);
