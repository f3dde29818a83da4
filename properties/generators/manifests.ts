/**
 * What a life is conceived with (its manifest) and born into (the environment's tools and
 * grantable capabilities).
 */
import type { JanmaManifest } from "../../spec/index.ts";
import type { Choice } from "./choice.ts";
import { BASE } from "./values.ts";

export const manifestFor = (pin: string, c: Choice): JanmaManifest => ({
  manifest_version: 1,
  substrate: { base_digest: BASE, store_version: pin },
  mission: "travel",
  capability_grants: [
    ...(c.y % 2 === 0 ? ["fare.*"] : ["fare.search", "fare.book"]),
    ...(c.x % 2 === 1 ? ["mail.send"] : []),
  ],
  tool_bindings: [
    { tool: "search", capabilities: ["fare.search", "fare.book"] },
    { tool: "mail", capabilities: ["mail.send"] },
  ],
  consent_scope: {
    grant_id: "g",
    principal: "p",
    // D-058: health is refused by its training cell, location by its storage cell alone (under the
    // low ceiling; the medium ceiling admits location), so each dimension decides somewhere.
    cells: [
      { category: "health", dimension: "training", sensitivity: "high" },
      { category: "location", dimension: "storage", sensitivity: "medium" },
    ],
    // Now and then two default rows for one category: MALFORMED at conception (D-042, review G-30).
    category_defaults:
      c.x % 16 === 3
        ? [
            { category: "financial", sensitivity: "medium" },
            { category: "financial", sensitivity: "low" },
          ]
        : [],
    persist_ceiling: c.x % 5 === 4 ? "medium" : "low",
  },
  ttl_ticks: 3 + (c.x % 20),
  termination_conditions:
    c.y % 3 === 0
      ? [
          { id: "fails", when: { op: "consecutive_failures_at_least", n: 2 } },
          { id: "many", when: { op: "acts_at_least", n: 4 } },
        ]
      : // G-28: the ticks_since_birth boundary and a tool_used that sees the current act's tool.
        c.y % 3 === 1
        ? [
            { id: "aged", when: { op: "ticks_since_birth_at_least", n: 1 + (c.x % 3 === 0 ? 1 : 0) } },
            { id: "mailed", when: { op: "tool_used", tool: "mail" } },
          ]
        : // D-015's other predicates (found by Stryker: no generated life had them): failures counted
          // whether consecutive or not, and all / any / not, each both firing and holding back.
          c.y % 6 === 2
          ? [
              { id: "flaky", when: { op: "failures_at_least", n: 2 } },
              {
                id: "searcher",
                when: {
                  op: "all",
                  of: [
                    { op: "acts_at_least", n: 3 },
                    { op: "not", of: { op: "tool_used", tool: "mail" } },
                  ],
                },
              },
              {
                id: "either",
                when: {
                  op: "any",
                  of: [
                    { op: "consecutive_failures_at_least", n: 3 },
                    { op: "ticks_since_birth_at_least", n: 4 + (c.x % 3) },
                  ],
                },
              },
            ]
          : [],
  // D-053: the principal's satisfaction model, or null for the reference formula.
  distillation_policy: {
    deadline_ticks: 5 + (c.x % 15),
    max_retries: c.y % 3,
    satisfaction_model: c.x % 3 === 1 ? "psm-2" : null,
  },
});

/**
 * A manifest whose grants are unsorted and duplicated (OP-0.6), and either include a narrower
 * wildcard that does not cover `fare.search` itself (D-016), or carry a ticks-since-birth
 * termination condition (D-015) with grants every act can use.
 */
export const edgeManifest = (pin: string, c: Choice): JanmaManifest => ({
  ...manifestFor(pin, c),
  capability_grants:
    c.y % 2 === 0 ? ["fare.search.*", "fare.book", "fare.book"] : ["fare.search", "fare.book", "fare.search"],
  termination_conditions:
    c.y % 2 === 0 ? [] : [{ id: "old", when: { op: "ticks_since_birth_at_least", n: 1 + (c.x % 3) } }],
  ttl_ticks: 6 + (c.x % 6),
});

export const ENV = (bad: boolean) => ({
  tools: bad
    ? []
    : [
        { tool: "search", capabilities: ["fare.search", "fare.book"] },
        { tool: "mail", capabilities: ["mail.send"] },
      ],
  grantable: ["fare.*", "mail.send"],
});

/** Spec review G-27: a tool may be offered twice, a partial entry first. */
export const offeredTools = (c: Choice) =>
  c.x % 3 === 0 ? [{ tool: "search", capabilities: ["fare.search"] }, ...ENV(false).tools] : ENV(false).tools;
