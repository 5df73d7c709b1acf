/**
 * Word banks the job generator draws from. Per category group: the skills such jobs ask for and
 * the tasks their titles describe. Category names themselves come from the filter schema.
 */
export interface GroupVocabulary {
	skills: readonly string[];
	tasks: readonly string[];
}

export const GROUP_VOCABULARY: Readonly<Record<string, GroupVocabulary>> = {
	'Accounting & Consulting': {
		skills: ['QuickBooks Online', 'Xero', 'Bookkeeping', 'Financial Modeling', 'Excel', 'Payroll', 'Tax Preparation', 'Business Strategy', 'HR Consulting'],
		tasks: ['monthly bookkeeping for a small agency', 'financial model for a seed round', 'QuickBooks clean-up and reconciliation', 'payroll setup for a remote team', 'go-to-market strategy review', 'recruiter for senior engineers'],
	},
	'Admin Support': {
		skills: ['Data Entry', 'Virtual Assistance', 'Google Sheets', 'Transcription', 'Email Management', 'Project Management', 'Market Research', 'Asana'],
		tasks: ['virtual assistant for inbox and calendar', 'data entry from scanned invoices', 'podcast transcription', 'competitor market research', 'project coordinator for a product launch', 'CRM data clean-up'],
	},
	'Customer Service': {
		skills: ['Customer Support', 'Zendesk', 'Live Chat', 'Intercom', 'Community Management', 'Discord', 'Technical Support'],
		tasks: ['live chat support agent (night shift)', 'Discord community moderator', 'Zendesk help centre setup', 'tier 1 technical support for a SaaS', 'customer success follow-ups'],
	},
	'Data Science & Analytics': {
		skills: ['Python', 'Machine Learning', 'pandas', 'SQL', 'Tableau', 'Power BI', 'Web Scraping', 'TensorFlow', 'LLM', 'ETL'],
		tasks: ['churn prediction model', 'Power BI sales dashboard', 'web scraper for real-estate listings', 'fine-tune an LLM on support tickets', 'ETL pipeline from Shopify to BigQuery', 'A/B test analysis'],
	},
	'Design & Creative': {
		skills: ['Adobe Illustrator', 'Photoshop', 'Figma', 'Logo Design', 'Video Editing', 'After Effects', 'Blender', 'Illustration', 'Brand Identity'],
		tasks: ['logo and brand identity for a coffee roaster', 'explainer video animation', 'children\'s book illustrations', 'pitch deck redesign', 'product photography retouching', '3D game character model'],
	},
	'Engineering & Architecture': {
		skills: ['AutoCAD', 'SolidWorks', 'Revit', '3D Modeling', 'PCB Design', 'Structural Engineering', 'MATLAB', 'Civil Engineering'],
		tasks: ['CAD drawings for a steel bracket', 'PCB layout for an IoT sensor', 'structural calculations for a deck', 'Revit model of a two-storey house', 'injection-moulded enclosure design'],
	},
	'IT & Networking': {
		skills: ['AWS', 'Docker', 'Kubernetes', 'Linux', 'Terraform', 'Network Security', 'PostgreSQL', 'Salesforce', 'Azure'],
		tasks: ['Kubernetes cluster hardening', 'migrate servers to AWS', 'Terraform modules for staging', 'SOC 2 readiness review', 'PostgreSQL performance tuning', 'Salesforce CRM customisation'],
	},
	Legal: {
		skills: ['Contract Drafting', 'Legal Research', 'Corporate Law', 'Immigration Law', 'Tax Law', 'GDPR', 'Trademark Law'],
		tasks: ['review a SaaS subscription agreement', 'GDPR privacy policy', 'trademark filing in the EU', 'work visa application advice', 'shareholder agreement draft'],
	},
	'Sales & Marketing': {
		skills: ['SEO', 'Google Ads', 'Facebook Ads', 'Lead Generation', 'Email Marketing', 'HubSpot', 'Social Media Marketing', 'Copywriting'],
		tasks: ['Google Ads campaign for a dental clinic', 'B2B lead generation list', 'SEO audit and content plan', 'cold email outreach sequence', 'social media manager for a fashion brand'],
	},
	Translation: {
		skills: ['English', 'Spanish', 'German', 'French', 'Japanese', 'Localization', 'Proofreading', 'Subtitling'],
		tasks: ['translate a mobile app into Spanish', 'German to English legal translation', 'subtitle a documentary in French', 'Japanese language tutor', 'localise a website into Portuguese'],
	},
	'Web, Mobile & Software Dev': {
		skills: ['JavaScript', 'TypeScript', 'React', 'Node.js', 'Python', 'Shopify', 'WordPress', 'Flutter', 'React Native', 'n8n', 'API Integration', 'Solidity'],
		tasks: ['Shopify store speed optimisation', 'React dashboard for a SaaS', 'n8n workflow automation for lead routing', 'Flutter app for appointment booking', 'WordPress plugin bug fixes', 'REST API integration with Stripe', 'smart contract audit'],
	},
	Writing: {
		skills: ['Content Writing', 'Copywriting', 'Blog Writing', 'Proofreading', 'Technical Writing', 'Ghostwriting', 'SEO Writing'],
		tasks: ['weekly blog posts about fintech', 'technical documentation for an API', 'ghostwriter for LinkedIn posts', 'proofread a 60k-word novel', 'sales page copy for an online course'],
	},
};

export const TITLE_TEMPLATES: readonly ((task: string) => string)[] = [
	(t) => capitalise(t),
	(t) => `Need help with ${t}`,
	(t) => `${capitalise(t)} (ongoing)`,
	(t) => `Looking for an expert: ${t}`,
	(t) => `Urgent: ${t}`,
	(t) => `Freelancer needed for ${t}`,
];

/** Description openings by ISO 639-1 language, so language filters have something real to read. */
export const DESCRIPTION_OPENINGS: Readonly<Record<string, (task: string) => string>> = {
	en: (t) => `We are looking for an experienced freelancer for ${t}.`,
	de: (t) => `Wir suchen einen erfahrenen Freelancer für folgendes Projekt: ${t}.`,
	es: (t) => `Buscamos un freelancer con experiencia para este proyecto: ${t}.`,
	fr: (t) => `Nous recherchons un freelance expérimenté pour ce projet : ${t}.`,
	pt: (t) => `Procuramos um freelancer experiente para este projeto: ${t}.`,
	it: (t) => `Cerchiamo un freelance esperto per questo progetto: ${t}.`,
};

export const DESCRIPTION_DETAILS: readonly string[] = [
	'Please share examples of similar work in your proposal.',
	'The work is remote and communication happens over Slack.',
	'We expect regular progress updates and clean, documented deliverables.',
	'Long-term collaboration is possible for the right person.',
	'Start is as soon as possible.',
	'Time zone overlap of a few hours with us would be great.',
];

export const SCREENING_QUESTIONS: readonly string[] = [
	'Describe your recent experience with similar projects.',
	'What is your availability per week?',
	'Which tools would you use for this job?',
	'Can you share a link to your portfolio?',
];

/** Client countries with a representative IANA time zone; weights make the US and Europe common. */
export const COUNTRIES: readonly { code: string; timezone: string; weight: number }[] = [
	{ code: 'US', timezone: 'America/New_York', weight: 20 },
	{ code: 'US', timezone: 'America/Los_Angeles', weight: 10 },
	{ code: 'US', timezone: 'America/Chicago', weight: 6 },
	{ code: 'GB', timezone: 'Europe/London', weight: 10 },
	{ code: 'CA', timezone: 'America/Toronto', weight: 6 },
	{ code: 'AU', timezone: 'Australia/Sydney', weight: 6 },
	{ code: 'DE', timezone: 'Europe/Berlin', weight: 6 },
	{ code: 'FR', timezone: 'Europe/Paris', weight: 3 },
	{ code: 'NL', timezone: 'Europe/Amsterdam', weight: 3 },
	{ code: 'ES', timezone: 'Europe/Madrid', weight: 2 },
	{ code: 'IT', timezone: 'Europe/Rome', weight: 2 },
	{ code: 'CH', timezone: 'Europe/Zurich', weight: 2 },
	{ code: 'SE', timezone: 'Europe/Stockholm', weight: 2 },
	{ code: 'IE', timezone: 'Europe/Dublin', weight: 2 },
	{ code: 'IL', timezone: 'Asia/Jerusalem', weight: 2 },
	{ code: 'AE', timezone: 'Asia/Dubai', weight: 3 },
	{ code: 'IN', timezone: 'Asia/Kolkata', weight: 3 },
	{ code: 'SG', timezone: 'Asia/Singapore', weight: 2 },
	{ code: 'JP', timezone: 'Asia/Tokyo', weight: 1 },
	{ code: 'BR', timezone: 'America/Sao_Paulo', weight: 2 },
	{ code: 'MX', timezone: 'America/Mexico_City', weight: 1 },
	{ code: 'ZA', timezone: 'Africa/Johannesburg', weight: 1 },
	{ code: 'UA', timezone: 'Europe/Kyiv', weight: 1 },
	{ code: 'PL', timezone: 'Europe/Warsaw', weight: 1 },
];

/** Where applicants may be when a job restricts them. */
export const FREELANCER_COUNTRIES: readonly string[] = ['US', 'GB', 'CA', 'AU', 'DE', 'IN', 'PH', 'UA', 'PL', 'BR'];

export const INDUSTRIES: readonly string[] = [
	'Tech & IT',
	'Retail & Consumer Goods',
	'Health & Fitness',
	'Education',
	'Finance & Accounting',
	'Real Estate',
	'Media & Entertainment',
	'Manufacturing & Construction',
	'Travel & Hospitality',
	'Legal',
	'Art & Design',
	'Sales & Marketing',
];

export const COMPANY_SIZES: readonly string[] = [
	'UNSPECIFIED',
	'SOLO_ENTERPRENEUR',
	'UP_TO_10_EMPLOYEES',
	'UP_TO_100_EMPOLOYEES',
	'UP_TO_500_EMPLOYEES',
	'UP_TO_1K_EMPLOYEES',
	'MORE_THAN_1K_EMPLOYEES',
];

export const FREELANCER_LANGUAGES: readonly string[] = ['English', 'Spanish', 'German', 'French', 'Portuguese'];

/** vendor.englishProficiency values; ANY means the job states no requirement. */
export const ENGLISH_PROFICIENCIES: readonly string[] = ['ANY', 'CONVERSATIONAL', 'FLUENT', 'NATIVE'];

export const FIRST_NAMES: readonly string[] = ['Anna', 'Ben', 'Carlos', 'Daria', 'Emeka', 'Fatima', 'George', 'Hana', 'Ivan', 'Julia', 'Kenji', 'Lucia', 'Mohammed', 'Nina', 'Omar', 'Priya'];
export const LAST_NAMES: readonly string[] = ['S.', 'K.', 'M.', 'P.', 'R.', 'T.', 'V.', 'W.'];

export const FEEDBACK_COMMENTS: readonly string[] = [
	'Great communication and delivered ahead of schedule.',
	'Solid work, a few revisions were needed.',
	'Excellent quality, would hire again.',
	'Very responsive and professional.',
	'Did what was asked; deadlines slipped a little.',
];

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
