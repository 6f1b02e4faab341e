/**
 * The honeypot: a field people never see or fill (hidden from sight, from assistive
 * technology and from the tab order). Bots that fill every field reveal themselves; the
 * receiver answers them like anyone else but keeps their submissions apart from real leads.
 */
export const HONEYPOT_FIELD = 'homepage';
