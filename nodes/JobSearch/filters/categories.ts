/**
 * Upwork's category taxonomy as the service matches it: 12 groups; each also accepts
 * "All - <Group>" to match every subcategory of the group.
 */
export interface CategoryGroup {
	group: string;
	subcategories: readonly string[];
}

export const CATEGORY_GROUPS: readonly CategoryGroup[] = [
	{
		group: 'Accounting & Consulting',
		subcategories: [
			'Accounting & Bookkeeping',
			'Financial Planning',
			'Management Consulting & Analysis',
			'Personal & Professional Coaching',
			'Recruiting & Human Resources',
			'Other - Accounting & Consulting',
		],
	},
	{
		group: 'Admin Support',
		subcategories: [
			'Data Entry & Transcription Services',
			'Market Research & Product Reviews',
			'Project Management',
			'Virtual Assistance',
		],
	},
	{
		group: 'Customer Service',
		subcategories: ['Community Management & Tagging', 'Customer Service & Tech Support'],
	},
	{
		group: 'Data Science & Analytics',
		subcategories: [
			'AI & Machine Learning',
			'Data Analysis & Testing',
			'Data Extraction/ETL',
			'Data Mining & Management',
		],
	},
	{
		group: 'Design & Creative',
		subcategories: [
			'Art & Illustration',
			'Audio & Music Production',
			'Branding & Logo Design',
			'Graphic, Editorial & Presentation Design',
			'NFT, AR/VR & Game Art',
			'Performing Arts',
			'Photography',
			'Product Design',
			'Video & Animation',
		],
	},
	{
		group: 'Engineering & Architecture',
		subcategories: [
			'3D Modeling & CAD',
			'Building & Landscape Architecture',
			'Chemical Engineering',
			'Civil & Structural Engineering',
			'Contract Manufacturing',
			'Electrical & Electronic Engineering',
			'Energy & Mechanical Engineering',
			'Interior & Trade Show Design',
			'Physical Sciences',
		],
	},
	{
		group: 'IT & Networking',
		subcategories: [
			'Database Management & Administration',
			'DevOps & Solution Architecture',
			'ERP/CRM Software',
			'Information Security & Compliance',
			'Network & System Administration',
		],
	},
	{
		group: 'Legal',
		subcategories: [
			'Corporate & Contract Law',
			'Finance & Tax Law',
			'International & Immigration Law',
			'Public Law',
		],
	},
	{
		group: 'Sales & Marketing',
		subcategories: [
			'Digital Marketing',
			'Lead Generation & Telemarketing',
			'Marketing, PR & Brand Strategy',
		],
	},
	{
		group: 'Translation',
		subcategories: ['Language Tutoring & Interpretation', 'Translation & Localization Services'],
	},
	{
		group: 'Web, Mobile & Software Dev',
		subcategories: [
			'AI Apps & Integration',
			'Blockchain, NFT & Cryptocurrency',
			'Desktop Application Development',
			'Ecommerce Development',
			'Game Design & Development',
			'Mobile Development',
			'Other - Software Development',
			'Product Management & Scrum',
			'QA Testing',
			'Scripts & Utilities',
			'Web & Mobile Design',
			'Web Development',
		],
	},
	{
		group: 'Writing',
		subcategories: [
			'Content Writing',
			'Editing & Proofreading Services',
			'Professional & Business Writing',
			'Sales & Marketing Copywriting',
		],
	},
];

export function allCategoryValue(group: string): string {
	return `All - ${group}`;
}

/** Every wire value jobCategories accepts: each subcategory, and "All - <Group>" per group. */
export function categoryValues(): string[] {
	return CATEGORY_GROUPS.flatMap((g) => [allCategoryValue(g.group), ...g.subcategories]);
}
