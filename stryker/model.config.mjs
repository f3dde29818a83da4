// Stryker on the reference model: `npm run stryker -- model`. Shared settings: stryker/base.mjs.
import { base } from "./base.mjs";

// The model's own test files and its test kit are not production code.
export default base("model", ["model/**/*.ts", "!model/**/*.test.ts", "!model/testkit.ts"]);
