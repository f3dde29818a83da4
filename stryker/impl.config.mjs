// Stryker on the implementation: `npm run stryker` (all), `npm run stryker -- impl` (this one).
// Shared settings and the reasons for them: stryker/base.mjs.
import { base } from "./base.mjs";

export default base("impl", ["impl/core/**/*.ts", "impl/durable/**/*.ts"]);
