/**
 * The profile a program declares (W-5.2, D-049): `--families a,b` (or `--families=a,b`) names any
 * non-empty subset of the families the program implements, and the operations of the others are
 * left out of its handler table, so the adapter answers a well-formed command of an undeclared
 * family UNSUPPORTED; `advaita.mint` stays, since every profile with a family needs it to create an
 * agent (D-034). Steps 3 and 4 (samskara.mjs, ripa.mjs) take the option.
 */
import { OPERATION_FAMILY } from "../index.mjs";

/**
 * The families `--families` names in `argv`, in the order of `all`, or all of them without the
 * option; anything else than a non-empty subset of `all` ends the process with exit code 2.
 * @param {string[]} argv @param {string[]} all
 */
export const declaredFamilies = (argv, all) => {
  let value;
  argv.forEach((a, i) => {
    if (a === "--families") value = argv[i + 1]?.startsWith("--") === false ? argv[i + 1] : "";
    else if (a.startsWith("--families=")) value = a.slice("--families=".length);
  });
  if (value === undefined) return all;
  const named = value.split(",");
  const unknown = named.filter((f) => !all.includes(f));
  if (value === "" || unknown.length > 0) {
    process.stderr.write(
      `--families takes a non-empty comma-separated subset of ${all.join(", ")}; got ${JSON.stringify(value)}\n`,
    );
    process.exit(2);
  }
  return all.filter((f) => named.includes(f));
};

/** The operations of `operations` (by op) that the declared `families` allow, `advaita.mint` always. */
export const allowedOperations = (operations, families) =>
  Object.fromEntries(
    Object.entries(operations).filter(
      ([op]) => op === "advaita.mint" || families.includes(OPERATION_FAMILY.get(op) ?? ""),
    ),
  );
