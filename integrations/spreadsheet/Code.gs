/**
 * Globaq website: the spreadsheet receiver for the contact form and the partner application.
 *
 * A Google Apps Script, bound to a Google Sheet and deployed as a web app (README.md beside this
 * file). Each POST from the site's forms becomes one row: one column per field, then the time it
 * was received and any field this script does not know, so nothing sent is dropped. A new sheet
 * gets its columns in the order the site sends the fields (the tables in src/forms/contact.ts and
 * src/forms/partner.ts; a unit test holds FORMS below to them). Cells are written under the
 * sheet's own header names, so staff may reorder columns or add their own (a "Status", say), and
 * a field the site adds later gets a new column at the end of an existing sheet.
 *
 * Which form: the `form` query parameter of the web app's address (…/exec?form=contact or
 * …/exec?form=partner). Without it the form is recognised by its fields (`firstName` for the
 * contact form, `organization` for the partner application). An unknown `form` value is refused.
 *
 * The body: the JSON the site's forms send. Sent cross-origin in `no-cors` mode, the browser drops
 * the JSON content type, so the body is parsed whatever its declared type, except a plain HTML
 * form post (application/x-www-form-urlencoded: a visitor without JavaScript), which is read from
 * the form parameters and answered with a short HTML page.
 *
 * Safety: a cell starting with = + - @, a tab or a carriage return is written with a leading
 * apostrophe, so the sheet shows it as text and never runs it as a formula. A script lock keeps two
 * submissions arriving together from interleaving. The honeypot field `homepage` (invisible to
 * people) marks a submission as a suspected bot's: it goes to its own sheet, apart from real leads.
 *
 * Notification: with the script property NOTIFY_TO set (addresses, comma-separated), each lead
 * (not a suspected bot's) is also e-mailed there with MailApp, after its row is stored: the same
 * mail the site's own server sends (subject naming the form and the visitor, Reply-To the
 * visitor, every answered field with its label). A mail that cannot go (quota, say) is logged and
 * the row stays: the sheet is the record. Labels are in LABELS; a test holds them to the site's.
 *
 * Apps Script cannot set an HTTP status: the answer is always 200, with a small JSON body
 * {"ok":true,...} or {"ok":false,"error":"..."}. The site cannot read it (no-cors); the Apps Script
 * editor's Executions page lists every call and its log.
 */

/** Each form: its sheet, and its fields in the order the site sends them. */
const FORMS = {
  contact: {
    sheet: 'Contact',
    fields: ['firstName', 'lastName', 'email', 'country', 'city', 'company', 'message', 'submissionDate', 'submissionTimestamp'],
  },
  partner: {
    sheet: 'Partner',
    fields: [
      'name',
      'jobTitle',
      'email',
      'phoneNumber',
      'country',
      'cityName',
      'organization',
      'companyWebsite',
      'presidentName',
      'yearsInBusiness',
      'numberOfSites',
      'numberOfEmployees',
      'formOfOwnership',
      'ownershipSpecification',
      'servicesTypes',
      'targetMarkets',
      'interestReason',
      'topThreeReasons',
      'classroomAvailable',
      'futureClassroomPlans',
      'trainersAvailable',
      'uploadedFiles',
      'qualityFamiliarity',
      'customerSatisfactionMeasured',
      'salesMarketingCapabilities',
      'demandAnticipation',
      'marketPotential',
      'localCompetition',
      'competitorEncounters',
      'competitorAnalysis',
    ],
  },
};

/** Each field's label in the notification e-mail (src/i18n/en.ts: contact.field.*, partner.field.*). */
const LABELS = {
  contact: {
    firstName: 'First Name',
    lastName: 'Last Name',
    email: 'Email',
    country: 'Country',
    city: 'City',
    company: 'Company',
    message: 'Message',
  },
  partner: {
    name: 'Full Name',
    jobTitle: 'Job Title',
    email: 'Email',
    phoneNumber: 'Phone Number',
    country: 'Country',
    cityName: 'City',
    organization: 'Organization',
    companyWebsite: 'Company Website',
    presidentName: 'Name of President or CEO',
    yearsInBusiness: 'Years in Business',
    numberOfSites: 'Number of Sites',
    numberOfEmployees: 'Number of Employees',
    formOfOwnership: 'Form of Ownership',
    ownershipSpecification: 'Ownership Details',
    servicesTypes: 'Services You Would Like to Offer',
    targetMarkets: 'Target Markets',
    interestReason: 'Why are you interested in partnering with Globaq?',
    topThreeReasons: 'What are the top three reasons clients would choose your organization?',
    classroomAvailable: 'Do you have a classroom available for training?',
    futureClassroomPlans: 'How do you plan to provide training facilities?',
    trainersAvailable: 'Do you have qualified trainers available?',
    uploadedFiles: "Trainers' CVs",
    qualityFamiliarity: 'Is your team familiar with ISO management system standards?',
    customerSatisfactionMeasured: 'Do you measure customer satisfaction?',
    salesMarketingCapabilities: 'Describe your sales and marketing capabilities.',
    demandAnticipation: 'What demand do you anticipate for these services?',
    marketPotential: 'What is the market potential in your region?',
    localCompetition: 'Who are your main local competitors?',
    competitorEncounters: 'Where have you encountered these competitors?',
    competitorAnalysis: 'How does your offer compare with theirs?',
  },
};

/** The script property with the addresses that get an e-mail for each lead. */
const NOTIFY_PROPERTY = 'NOTIFY_TO';

/** Columns after each form's own fields. */
const EXTRA_COLUMNS = ['receivedAt', 'otherFields'];

/** The site's honeypot field (src/forms/honeypot.ts). */
const HONEYPOT_FIELD = 'homepage';

/** Suffix of the sheet that keeps submissions with the honeypot filled in. */
const SPAM_SUFFIX = ' (suspected spam)';

/** A body larger than this is refused (the site's forms send a few kilobytes at most). */
const MAX_BODY_CHARS = 200000;

/** Google Sheets holds at most 50,000 characters in a cell. */
const MAX_CELL_CHARS = 50000;

/** How long a submission waits for another one to finish writing. */
const LOCK_WAIT_MS = 20000;

/** A submission that cannot be stored, with a short machine-readable reason. */
class SubmissionError extends Error {
  constructor(code, detail) {
    super(detail || code);
    this.code = code;
  }
}

/** Web app entry point for POST requests. */
function doPost(e) {
  const htmlReply = isFormPost_(e);
  let result;
  try {
    result = receive_(e, new Date());
  } catch (error) {
    const code = error instanceof SubmissionError ? error.code : 'internal_error';
    console.error('Submission not stored: ' + code + ': ' + (error && error.message));
    result = { ok: false, error: code };
  }
  return htmlReply ? htmlReply_(result) : jsonReply_(result);
}

/** Web app entry point for GET requests: a way to check the deployment's address in a browser. */
function doGet() {
  return ContentService.createTextOutput(
    'Globaq form receiver. The website posts to this address with ?form=contact or ?form=partner.',
  ).setMimeType(ContentService.MimeType.TEXT);
}

/** Parses, checks and stores one submission. Returns {ok, form, sheet, row}; throws SubmissionError. */
function receive_(e, now) {
  const payload = readPayload_(e);
  const name = chooseForm_(e && e.parameter ? e.parameter.form : undefined, payload);
  const form = FORMS[name];
  const spam = String(payload[HONEYPOT_FIELD] == null ? '' : payload[HONEYPOT_FIELD]).trim() !== '';
  const sheetName = spam ? form.sheet + SPAM_SUFFIX : form.sheet;

  const lock = LockService.getScriptLock();
  if (!lock.tryLock(LOCK_WAIT_MS)) throw new SubmissionError('busy', 'another submission held the lock too long');
  let stored;
  try {
    const sheet = sheetFor_(sheetName);
    const header = headerFor_(sheet, form);
    sheet.appendRow(rowFor_(form, payload, now, header));
    SpreadsheetApp.flush();
    stored = { ok: true, form: name, sheet: sheetName, row: sheet.getLastRow() };
  } finally {
    lock.releaseLock();
  }
  if (!spam) stored.notified = notify_(name, payload, now);
  return stored;
}

/**
 * E-mails a stored lead to NOTIFY_TO, when set. Returns true when sent, false when not set or
 * when sending failed (logged; the row is stored either way).
 */
function notify_(name, payload, now) {
  const to = PropertiesService.getScriptProperties().getProperty(NOTIFY_PROPERTY);
  if (!to || String(to).trim() === '') return false;
  try {
    const mail = leadMail_(name, payload, now);
    const message = { to: String(to), subject: mail.subject, body: mail.text, htmlBody: mail.html, name: 'Globaq website' };
    if (mail.replyTo) message.replyTo = mail.replyTo;
    MailApp.sendEmail(message);
    return true;
  } catch (error) {
    console.error('Lead stored, but its e-mail was not sent: ' + (error && error.message));
    return false;
  }
}

/** Text for a mail header: one line, no control characters, at most `max` characters. */
function headerText_(value, max) {
  const line = String(value == null ? '' : value)
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? line.slice(0, max - 1) + '…' : line;
}

function answerText_(value) {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  return String(value).trim();
}

/** The lead's e-mail, as the site's server writes it (src/server/mail/lead-mail.ts). */
function leadMail_(name, payload, now) {
  const field = function (key) {
    return headerText_(answerText_(payload[key]), 80);
  };
  let subject;
  let visitor;
  if (name === 'partner') {
    subject = 'New partner application: ' + field('organization') + ', ' + field('country');
    visitor = field('name');
  } else {
    visitor = (field('firstName') + ' ' + field('lastName')).trim();
    subject = 'New contact message from ' + visitor + (field('company') ? ', ' + field('company') : '');
  }
  subject = headerText_(subject, 200);
  const received = 'Received ' + Utilities.formatDate(now, 'Asia/Riyadh', "EEEE d MMMM yyyy 'at' HH:mm") + ' (Riyadh time)';
  const labels = LABELS[name];
  const answered = [];
  Object.keys(labels).forEach(function (key) {
    const text = answerText_(payload[key]);
    if (text !== '') answered.push({ label: labels[key], text: text });
  });
  const email = answerText_(payload.email);
  const replyTo = /^[^\s@<>",;]+@[^\s@<>",;]+$/.test(email) ? email : '';
  const reply = replyTo ? 'Reply to this e-mail to answer ' + visitor + ' at ' + replyTo + '.' : '';
  const text = [subject, received, '']
    .concat(
      answered.map(function (entry) {
        return entry.text.indexOf('\n') >= 0 ? entry.label + ':\n' + entry.text + '\n' : entry.label + ': ' + entry.text;
      }),
    )
    .concat(['', reply])
    .join('\n')
    .trim();
  const rows = answered
    .map(function (entry) {
      return '<tr><th scope="row" style="text-align:start;vertical-align:top;padding:4px 12px 4px 0">' + escapeHtml_(entry.label) + '</th><td style="white-space:pre-wrap;padding:4px 0">' + escapeHtml_(entry.text) + '</td></tr>';
    })
    .join('\n');
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body style="font-family:sans-serif">' +
    '<h1 style="font-size:18px">' + escapeHtml_(subject) + '</h1><p>' + escapeHtml_(received) + '</p><table>' + rows + '</table>' +
    (reply ? '<p>' + escapeHtml_(reply) + '</p>' : '') +
    '</body></html>';
  return { subject: subject, text: text, html: html, replyTo: replyTo };
}

/** True for a plain HTML form post (the site's forms with JavaScript off). */
function isFormPost_(e) {
  const type = e && e.postData && e.postData.type ? String(e.postData.type).toLowerCase() : '';
  return type.indexOf('application/x-www-form-urlencoded') === 0;
}

/** The submitted fields as an object. */
function readPayload_(e) {
  if (!e || !e.postData) throw new SubmissionError('empty_body', 'no request body');
  if (isFormPost_(e)) return formParameters_(e.parameters || {});
  const text = e.postData.contents;
  if (typeof text !== 'string' || text.trim() === '') throw new SubmissionError('empty_body', 'no request body');
  if (text.length > MAX_BODY_CHARS) throw new SubmissionError('too_large', text.length + ' characters');
  let payload;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw new SubmissionError('malformed_json', String(error && error.message));
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new SubmissionError('not_an_object', 'the body must be a JSON object');
  }
  return payload;
}

/**
 * An HTML form post's fields: e.parameters holds every value of every key as a list, and mixes in
 * the query string's `form`, which is not a field. Repeated keys (the multi-selects, several file
 * names) keep all their values, joined in one cell like the JSON lists.
 */
function formParameters_(parameters) {
  const out = {};
  Object.keys(parameters).forEach(function (key) {
    if (key === 'form') return;
    const values = [].concat(parameters[key]).filter(function (v) {
      return v !== '';
    });
    out[key] = values.length > 1 ? values : values.length === 1 ? values[0] : '';
  });
  return out;
}

/** The form's name: the `form` parameter when given, else recognised by its fields. */
function chooseForm_(requested, payload) {
  if (requested !== undefined && requested !== '') {
    const name = String(requested).toLowerCase();
    if (!Object.prototype.hasOwnProperty.call(FORMS, name)) throw new SubmissionError('unknown_form', String(requested));
    return name;
  }
  const has = function (key) {
    return Object.prototype.hasOwnProperty.call(payload, key);
  };
  if (has('organization') && !has('firstName')) return 'partner';
  if (has('firstName') && !has('organization')) return 'contact';
  throw new SubmissionError('unknown_form', 'no ?form= parameter and the fields match neither form');
}

/**
 * One row under `header` (the sheet's first row; by default the form's fields, then the time
 * received and any unknown field as JSON): each column gets the value of the field it names, a
 * column the script does not fill (one staff added) stays empty.
 */
function rowFor_(form, payload, now, header) {
  const columns = header || form.fields.concat(EXTRA_COLUMNS);
  const known = {};
  form.fields.forEach(function (field) {
    known[field] = true;
  });
  known[HONEYPOT_FIELD] = true;
  const others = {};
  Object.keys(payload).forEach(function (key) {
    if (!known[key]) others[key] = payload[key];
  });
  const cells = {};
  form.fields.forEach(function (field) {
    cells[field] = cellValue_(payload[field]);
  });
  cells.receivedAt = now.toISOString();
  cells.otherFields = Object.keys(others).length > 0 ? cellValue_(JSON.stringify(others)) : '';
  return columns.map(function (column) {
    return Object.prototype.hasOwnProperty.call(cells, column) ? cells[column] : '';
  });
}

/** A field's value as a safe cell: text neutralised, lists joined, numbers kept as numbers. */
function cellValue_(value) {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  let text = Array.isArray(value) ? value.map(String).join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (text.length > MAX_CELL_CHARS) text = text.slice(0, MAX_CELL_CHARS - 20) + ' …[truncated]';
  return neutralise_(text);
}

/**
 * Text that a spreadsheet would read as a formula (= + - @) or that starts with a tab or a
 * carriage return gets a leading apostrophe: Sheets then stores it as text and hides the
 * apostrophe. Text already starting with an apostrophe gets one more, so it is shown as sent.
 */
function neutralise_(text) {
  return /^[=+\-@\t\r']/.test(text) ? "'" + text : text;
}

/** The sheet of this name, created on first use. */
function sheetFor_(name) {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  return spreadsheet.getSheetByName(name) || spreadsheet.insertSheet(name);
}

/**
 * The sheet's column names (its first row). An empty sheet gets the form's fields and the extra
 * columns, frozen; a sheet made before the form gained a field gets a column for it at the end.
 */
function headerFor_(sheet, form) {
  const wanted = form.fields.concat(EXTRA_COLUMNS);
  if (sheet.getLastRow() === 0) {
    sheet.appendRow(wanted);
    sheet.setFrozenRows(1);
    return wanted;
  }
  const width = sheet.getLastColumn();
  const header = width > 0 ? sheet.getRange(1, 1, 1, width).getValues()[0].map(String) : [];
  const missing = wanted.filter(function (column) {
    return header.indexOf(column) < 0;
  });
  if (missing.length > 0) {
    sheet.getRange(1, header.length + 1, 1, missing.length).setValues([missing]);
    return header.concat(missing);
  }
  return header;
}

function jsonReply_(result) {
  return ContentService.createTextOutput(JSON.stringify(result)).setMimeType(ContentService.MimeType.JSON);
}

/** The page a visitor without JavaScript sees after posting the form here. */
function htmlReply_(result) {
  const title = result.ok ? 'Thank you' : 'Not sent';
  const text = result.ok
    ? 'Thank you. Your submission has been received, and we will get back to you soon.'
    : 'Sorry, your submission could not be saved (' + result.error + '). Please go back and try again.';
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>' +
    title +
    '</title></head><body><h1>' +
    title +
    '</h1><p>' +
    escapeHtml_(text) +
    '</p></body></html>';
  return HtmlService.createHtmlOutput(html).setTitle(title);
}

function escapeHtml_(text) {
  return String(text).replace(/[&<>"']/g, function (c) {
    return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
  });
}
