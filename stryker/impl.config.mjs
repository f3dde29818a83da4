// Stryker on the implementation: `npm run stryker -- impl` (`npm run stryker` runs impl and model).
// Settings and the reasons for them: stryker/base.mjs.
import { base } from "./base.mjs";

export default base("impl");
