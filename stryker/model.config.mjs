// Stryker on the reference model: `npm run stryker -- model`. Settings: stryker/base.mjs.
import { base } from "./base.mjs";

export default base("model");
