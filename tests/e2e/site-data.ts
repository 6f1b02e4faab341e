/** The company details the built site was made with: src/data/company.yaml with the same environment. */
import { createSite } from '../../src/data/company';

export const site = createSite(process.env);
