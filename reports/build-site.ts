/** `npm run docs`, second step: builds the docs site into reports/site/ (reports/site.ts). */
import { buildSite, SITE_DIR } from "./site.ts";

await buildSite();
console.error(`reports: built the docs site in ${SITE_DIR}/`);
