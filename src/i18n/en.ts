/**
 * Every string of the site's interface in English. Page text lives in src/content; the
 * company's details in src/data/site.ts. A new locale copies this file and translates it:
 * `satisfies UiStrings` (src/i18n/index.ts) makes a missing key a type error.
 */
export const en = {
  'site.tagline': 'Quality Assurance Excellence',
  'site.description':
    'Globaq is a quality-assurance, compliance and consultancy company in Al-Khobar, Saudi Arabia: Saudi Aramco Schedule Q and D assessments, ISO trainings and consultancy, ISO/IEC 17025 laboratory services, ESG and more.',

  'skip.toMain': 'Skip to main content',

  'header.homeLink': 'Globaq home',
  'header.navLabel': 'Main',
  'header.menu': 'Menu',
  /** The name of the button that opens a page's own submenu (an ISO training's standards). */
  'header.submenu': '{label} submenu',
  'header.becomePartner': 'Become a Partner',

  'footer.blurb':
    'Globaq delivers quality assurance, compliance and consultancy services from Al-Khobar to organizations across Saudi Arabia: Simple, Efficient and Timely, in support of Saudi Vision 2030.',
  'footer.location': 'Location',
  'footer.contact': 'Contact',
  'footer.email': 'E-mail',
  'footer.phone': 'Phone',
  'footer.quickLinks': 'Quick Links',
  'footer.aboutUs': 'About Us',
  'footer.careers': 'Careers',
  'footer.careersSubject': 'Careers at Globaq',
  'footer.contactUs': 'Contact Us',
  'footer.services': 'Services',
  'footer.followUs': 'Follow us',
  'footer.copyright': '© {year} Globaq. All rights reserved.',
  'footer.socialLink': 'Globaq on {network} (opens in a new tab)',

  'chat.label': 'Chat with us on WhatsApp (opens in a new tab)',

  'home.title': 'Globaq',
  'home.intro':
    'Quality assurance, compliance and consultancy from Al-Khobar: Saudi Aramco Schedule Q and D assessments, ISO trainings and consultancy, laboratory services and more.',
  'home.vision': 'Our Vision',
  'home.mission': 'Our Mission',
  'home.services': 'Our Services',
  'home.clients': 'Key Clients & Approvals',
  'home.commitment': 'Our Commitment to Quality',

  'service.overview': 'Service Overview',
  'service.keyBenefits': 'Key Benefits',
  'service.benefit.consultation': 'Expert consultation and guidance',
  'service.benefit.compliance': 'Compliance with international standards',
  'service.benefit.customized': 'Customized solutions',
  'service.benefit.support': 'Ongoing support and maintenance',
  'service.benefit.cost': 'Cost-effective implementation',
  'service.whyChoose': 'Why Choose Globaq?',
  'service.stat.years.value': '5+',
  'service.stat.years.label': 'Years Experience',
  'service.stat.projects.value': '50+',
  'service.stat.projects.label': 'Projects Completed',
  'service.stat.satisfaction.value': '95%',
  'service.stat.satisfaction.label': 'Client Satisfaction',
  'service.stat.support.value': '24/7',
  'service.stat.support.label': 'Support',
  'service.readyTitle': 'Ready to Get Started?',
  'service.readyText':
    'Tell us about your organization and your goals. We will reply with a clear plan, a timeline and a quotation.',
  'service.freeConsultation': 'Get a Free Consultation',
  'service.backHome': 'Back to Home',
  'service.otherServices': 'Other Services',
  'service.learnMore': 'Learn More',
  'service.learnMoreAbout': 'Learn more about {title}',

  'comingSoon.title': 'Coming Soon',
  'comingSoon.text':
    'We are preparing this service page. In the meantime, our team is glad to tell you about it directly.',
  'comingSoon.description': 'This Globaq service page is being prepared. Contact us to learn more about the service in the meantime.',

  'notFound.title': 'Page not found',
  'notFound.text': 'The page you are looking for does not exist or has moved.',
  'notFound.description': 'The page you are looking for does not exist or has moved. Find your way back to Globaq services.',
  'notFound.popular': 'You may be looking for',

  'nav.home': 'Home',
  'nav.contactUs': 'Contact Us',

  'page.onThisPage': 'On this page',
  'page.duration': 'Duration',

  'contact.title': 'Contact Us',
  'contact.description': 'Contact Globaq in Al-Khobar, Saudi Arabia: send a message, call or e-mail us about audits, trainings, consultancy and laboratory services.',
  'contact.lead': 'Tell us what you need and we will get back to you soon.',
  'contact.address': 'Address',
  'contact.reachUs': 'Reach us directly',

  'partner.title': 'Become a Partner',
  'partner.description': 'Apply to become a Globaq partner or affiliate: training, certification and inspection services across your market.',
  'partner.lead': 'Partner with Globaq to bring quality assurance, training and certification services to your market.',
  'partner.interim': 'To apply now, e-mail us at {email} with your organization, country and the services you would like to offer.',

  'thanks.title': 'Thank You',
  'thanks.text': 'Thank you! Your form was submitted successfully.',
  'thanks.description': 'Thank you for contacting Globaq. Your form was submitted successfully and our team will get back to you soon.',
} as const;
