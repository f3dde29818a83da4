/** The maker of the ordinary distil: a distillate of a withdrawn life, valid or with one defect. */
import type { Disposition } from "../../spec/index.ts";
import { pick } from "./choice.ts";
import { modelOf } from "./distillates.ts";
import { lifeKey } from "./memory.ts";
import type { Maker } from "./step.ts";
import { fullWidth, traceWords } from "./traces.ts";
import { ASTRAL, EVIDENCE, GUIDANCE, KEYS } from "./values.ts";
import { instancesIn } from "./views.ts";

export const distil: Maker = ({ mem, c, agent, A, tick, id, bad }) => {
  const i = pick(
    agent.instances.filter((x) => x.state === "withdrawn" && x.obligation_id === null),
    c.y,
  );
  const life = i === undefined ? undefined : mem.lives.get(lifeKey(A, i.instance_id));
  if (i === undefined || life === undefined) {
    const living = pick(instancesIn(agent, ["ready", "active"]), c.y);
    return living === undefined
      ? { op: "samskara.replay", tick, agent: A }
      : { op: "janma.withdraw", tick, agent: A, instance_id: living.instance_id, reason: "principal" };
  }
  const valence = [-800_000, -300_000, 0, 400_000, 900_000][c.x % 5] ?? 0;
  // Few distinct confidences, and weights nudged by one millionth on odd choices, so that
  // per-key means often land exactly on a half (D-002 rounding ties are exercised).
  const confidence = [1, 250_000, 1_000_000, 600_000, 250_000, 1_000_000][c.y % 6] ?? 1;
  const nudge = Math.sign(valence) * (c.y % 2);
  // A guidance may quote three consecutive trace words: the largest overlap that is not a leak (D-010).
  // Words are taken across entries (G-51); a snake_case word makes three words four tokens (G-50).
  const words = traceWords(life.trace);
  const snake = words.findIndex((w) => w.includes("_"));
  const from = snake > 0 && c.y % 2 === 0 ? snake - 1 : 0;
  const nearLeak = words.slice(from, from + 3).join(" ");
  const n = 1 + (c.x % 3);
  const dispositions: Disposition[] = [
    ...new Set([0, 1, 2].slice(0, n).map((k) => KEYS[(c.y + k * 2) % KEYS.length] ?? "k")),
  ].map((k, j) => ({
    key: k,
    // Now and then a guidance of astral characters exactly at the 1000-code-point bound, or one
    // past it (S-1): an implementation counting UTF-16 units disagrees on both (D-041, review G-6).
    guidance:
      j === 0 && c.x % 16 === 5
        ? ASTRAL.repeat(c.x % 32 === 5 ? 1000 : 1001)
        : j === 1 && nearLeak.length > 0 && c.x % 2 === 0
          ? `${nearLeak} then confirm`
          : (GUIDANCE[(c.x + j) % GUIDANCE.length] ?? "g"),
    weight: Math.trunc((valence * (j + 1)) / 3) - nudge,
    evidence_digest: EVIDENCE,
    category: "operational",
  }));
  // G-52 / D-007: a shared key every such distillate contributes to with the same |w| and c, so
  // the leader among them is decided by the distillate id alone.
  const tie = (c.x + c.op) % 4 !== 3;
  if (tie)
    dispositions.push({
      key: "k.tie",
      guidance: GUIDANCE[c.x % GUIDANCE.length] ?? "g",
      weight: Math.sign(valence) * 300_000,
      evidence_digest: EVIDENCE,
      category: "operational",
    });
  // One kind of defect at a time, so each reaches the check it targets.
  const defect = bad ? c.y % 5 : -1;
  // G-31: a reused id is often one whose obligation was discharged without being applied.
  const dropped = pick(
    agent.obligations.filter((o) => o.status === "discharged" && o.outcome !== "applied"),
    c.x,
  );
  const distillate_id =
    defect === 0
      ? (((c.x % 2 === 0 ? dropped : undefined) ?? pick(agent.obligations, c.x))?.distillate_id ?? id("d"))
      : ((!bad && c.x % 6 === 5 ? dropped?.distillate_id : undefined) ?? id("d"));
  const d: Record<string, unknown> = {
    distillate_id,
    // G-30: a zero confidence from a foreign nonce is AD-4 (attribution is checked first).
    source: {
      identity: A,
      nonce: defect === 1 && c.x % 2 === 0 ? `${life.nonce}-other` : life.nonce,
      instance_id: i.instance_id,
    },
    born_from: i.born_from,
    signal: {
      valence,
      confidence: defect === 1 ? 0 : tie ? 600_000 : confidence,
      model_version: modelOf(life),
      explicit: true,
    },
    // Now and then one key twice: S-1 by a rule JSON Schema cannot express (rules.json, review G-5).
    // Defect 2: a weight against the valence's sign, or (odd x, valence not 0) one millionth
    // over |valence| (OP-2.7.c7, |weight| ≤ |valence| on its far side; issue 21).
    dispositions:
      defect === 2 && c.x % 2 === 1 && valence !== 0
        ? dispositions.map((x, j) => (j === 0 ? { ...x, weight: valence + Math.sign(valence) } : x))
        : defect === 2
          ? dispositions.map((x) => ({ ...x, weight: -x.weight || 1 }))
          : c.x % 16 === 9
            ? [...dispositions, ...dispositions.slice(0, 1)]
            : dispositions,
  };
  if (defect === 3 && c.x % 2 === 0) d["episode"] = life.trace.join("\n");
  // G-30: two dispositions for one key (a schema refinement, so S-1), the second otherwise valid.
  if (defect === 3 && c.x % 2 === 1)
    d["dispositions"] = [...dispositions, { ...dispositions[0], guidance: "a second lesson" }];
  // A leak: a guidance that quotes four or more consecutive words of the trace (S-1, D-010).
  // Runs do not span trace entries (D-010, G-51), so the quote is taken from one entry of four
  // words or more when there is one: verbatim, in upper case or in full width (issue 21).
  const entry = life.trace
    .find((e) => e.split(" ").length >= 4)
    ?.split(" ")
    .slice(0, 5)
    .join(" ");
  const leak = entry === undefined ? undefined : [entry, entry.toUpperCase(), fullWidth(entry)][(c.x >> 1) % 3];
  if (defect === 4)
    d["dispositions"] = [
      {
        ...dispositions[0],
        guidance: `prefer ${leak ?? (words.length > 0 ? words.slice(0, 5).join(" ") : "leak leak leak leak")}`,
      },
    ];
  // G-51: an otherwise valid distillate whose guidance quotes four words across an entry boundary.
  if (!bad && c.x % 7 === 3 && life.trace.length > 1)
    d["dispositions"] = [{ ...dispositions[0], guidance: `then ${words.slice(1, 5).join(" ")}` }];
  return { op: "janma.distil", tick, agent: A, instance_id: i.instance_id, obligation_id: id("ob"), distillate: d };
};
