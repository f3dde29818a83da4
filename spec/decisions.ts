/**
 * The decision record: every point the papers leave open, settled once, as data.
 *
 * Each decision says what was decided, why, what the paper says, which alternatives were weighed,
 * and which invariants it refines. `spec/DECISIONS.md` and the per-invariant docs are generated
 * from this list; the code cites decisions by id (D-0xx).
 */
import type { InvariantId } from "./catalog.ts";

export interface Decision {
  readonly id: `D-${string}`;
  readonly title: string;
  readonly decision: string;
  readonly why: string;
  readonly paper: string;
  readonly alternatives: string;
  /** The invariants it refines; empty only for a decision about the kit itself (`kit: true`). */
  readonly refines: readonly InvariantId[];
  /** A decision about the kit as a tool (packaging, versions), not about the protocols. */
  readonly kit?: true;
}

export const DECISIONS: readonly Decision[] = [
  {
    id: "D-001",
    title: "Weights, valences and confidences are integers in millionths",
    decision:
      "Every quantity in [-1, 1] or [0, 1] (disposition weight, signal valence, signal confidence, store weights) is carried on the wire and in every computation as an integer number of millionths: 1.0 is 1000000. No floating point value is ever hashed or compared.",
    why: "AD-3 and S-5 demand bit-identical results across languages. Integer arithmetic at a fixed scale is exact everywhere; floating point sums depend on arrival order and on the language's formatting of numbers in canonical JSON.",
    paper:
      "Samsara, 'Samskara: Dispositional Continuity', gives weights such as +0.9 and valence in [-1,1] without fixing a representation.",
    alternatives:
      "IEEE-754 doubles summed in canonical order (exact only if every implementation sums identically and formats identically); decimal strings with arbitrary precision (exact but heavier to validate); rationals (exact but unbounded in size).",
    refines: ["S-2", "AD-3", "S-5"],
  },
  {
    id: "D-002",
    title: "Per-key aggregation is a confidence-weighted mean, rounded half to even",
    decision:
      "For a key k with contributors (w_i, c_i), where w_i is the disposition weight and c_i the confidence of its distillate's signal, the stored weight is roundHalfEven(sum(w_i * c_i) / sum(c_i)), computed with arbitrary-precision integers. The result lies in [-1000000, 1000000] because it is a weighted mean of values in that range.",
    why: "The paper asks for 'per-key confidence-weighted aggregation' that 'averages the weights'. A weighted mean over the whole contributor set is a function of the set, so it is order-, batching- and duplication-independent by construction. Rounding half to even is the unbiased integer rounding every language can implement exactly with integer division.",
    paper:
      "Samsara, 'Advaita: Substrate Identity': canonical ordering by key and distillate id; per-key confidence-weighted aggregation; on a contested key the weights are averaged.",
    alternatives:
      "Unweighted mean (ignores confidence, which the paper names); running exponential average in arrival order (order-dependent, violates AD-3); sum clamped to [-1,1] (saturates, and is not an average).",
    refines: ["AD-3", "S-4", "S-5"],
  },
  {
    id: "D-003",
    title: "Canonical JSON is RFC 8785 over an integer-only JSON subset with ASCII identifiers",
    decision:
      "Canonical bytes are the UTF-8 encoding of RFC 8785 (JCS) text, produced with the maintained 'canonicalize' package (pinned at 4.0.0, the newest release that supports Node 20; 5.x requires Node 22). Values that are hashed contain only objects, arrays, strings, booleans, null and safe integers. Identifiers, disposition keys and capability names are ASCII, so sorting them by UTF-16 code unit (what JCS uses for keys) equals sorting by byte and by code point in every language.",
    why: "JCS number formatting is the part implementations most often get wrong; excluding non-integers removes it. ASCII ids make every sort order in the spec language-independent.",
    paper:
      "Neither paper fixes an encoding. The neighbouring protocols hash 'sorted keys, no insignificant whitespace, UTF-8', which JCS makes precise.",
    alternatives:
      "Hand-rolled sorted-key JSON (ambiguous on number and string escaping); CBOR deterministic encoding (binary, less convenient for a JSON-lines protocol).",
    refines: ["S-4", "AD-3", "AD-1"],
  },
  {
    id: "D-004",
    title: "Digest text is 'sha256:' plus 64 lowercase hex digits, everywhere",
    decision:
      "Every digest, including a disposition's evidence digest, is the full SHA-256 output written as 'sha256:' followed by 64 lowercase hexadecimal digits.",
    why: "One format means one validator and no truncation collisions. Truncated digests are a presentation concern.",
    paper: "Samsara's example evidence digest is 12 hex characters; the neighbouring protocols write 'sha256:<hex>'.",
    alternatives:
      "Allow 12-hex evidence digests as in the paper's example (collision-prone at scale, and a second format to validate); multihash (more general than needed).",
    refines: ["AD-4", "S-5"],
  },
  {
    id: "D-005",
    title: "Digests are domain-separated; identity spells out the concatenation",
    decision:
      "H(tag, v) = SHA-256(UTF8(tag) || 0x00 || UTF8(JCS(v))), with one versioned tag per kind of object (the domain-tag table: ENC-4, spec/TABLES.md and spec/tables.json). The Advaita identity is SHA-256(UTF8('advaita/identity/v1') || 0x00 || UTF8(base_digest) || 0x00 || UTF8(lineage_root)), where both digests are in their text form.",
    why: "Domain separation guarantees that a distillate can never collide with a batch or a version even if their JSON happened to coincide. Spelling '||' as a 0x00 separator between the two digest texts makes the identity preimage unambiguous and easy to reproduce byte for byte.",
    paper: "Samsara, 'Advaita: Substrate Identity': identity = H(base digest || lineage root).",
    alternatives:
      "Raw concatenation of the 32-byte digests (equally unambiguous, but harder to reproduce from the text form); hashing a JSON object {base, root} (fine, but the paper writes a concatenation).",
    refines: ["AD-1"],
  },
  {
    id: "D-006",
    title: "Genesis, version, batch and state digests",
    decision:
      "Genesis version = H('samskara/genesis/v1', {base_digest, root}) with a caller-supplied unique root (a UUID in practice). The lineage root is the genesis version id. A merge batch's digest is H('samskara/batch/v1', {distillates: sorted distinct distillate digests}); the state digest is H('samskara/store-state/v1', {entries}); a version id is H('samskara/version/v1', {parent, batch, state}). The genesis version's record has parent null, batch_digest null and state_digest the digest of the empty state {entries: []}; its id is the genesis digest above, never a version-tag hash, and the version preimage's members are named parent, batch and state although the record's fields are parent, batch_digest and state_digest (spec review G-2).",
    why: "The version id binds history (parent), what was added (batch) and the result (state), so replay can check each of them. Sorting inside the batch makes one batch's id independent of arrival order within it.",
    paper:
      "Samsara, 'Advaita: Substrate Identity' (lineage root must be unique, e.g. a UUID) and 'Samskara' (append-only lineage, deterministic replay).",
    alternatives:
      "Version id = state digest only (loses history: two different lineages reaching one state would share a version, and S-3 could not be checked); include a wall-clock timestamp (non-deterministic).",
    refines: ["S-3", "S-4", "AD-1"],
  },
  {
    id: "D-007",
    title: "Contested keys, the highest-weighted contributor, and a total tie-break",
    decision:
      "A key is contested iff at least one contributor has a positive weight and another a negative one. The highest-weighted contributor maximises |w| * c, then |w|, then c, and finally has the smallest distillate id; its guidance and category become the entry's. Distillate ids are unique per agent, so the order is total.",
    why: "Sign disagreement is what makes a merge 'average opposite lessons to near zero', which is the case the paper warns about. Magnitude times confidence is the contributor's share of the weighted mean, so the rule picks the contribution that moved the weight most.",
    paper:
      "Samsara, 'Advaita: Substrate Identity': 'On a contested key the merge takes the highest-weighted contributor's guidance and averages the weights'; canonical ordering by disposition key and distillate id.",
    alternatives:
      "Contested = any disagreement in guidance text (would flag mere rewording); highest-weighted = largest signed weight (would always prefer positive lessons over corrective ones).",
    refines: ["AD-3"],
  },
  {
    id: "D-008",
    title: "Re-merging a merged distillate is a no-op; a conflicting id is rejected",
    decision:
      "A merge naming an obligation already discharged as applied skips it; if nothing new remains the merge is accepted and changes nothing. A distillate id that was ever used in the agent (pending, merged or excised) cannot be reused by a different distillate (AD-3 rejection at distillation).",
    why: "Custody retries make duplicate deliveries normal; apply-at-most-once keyed on the obligation id is what the custody protocol prescribes. Reusing an id for different content would make the id ambiguous in excision records and attribution.",
    paper:
      "Samsara, 'Advaita' (order-independent merge). The custody protocol: apply at most once, keyed on the obligation id; a duplicate delivery changes nothing.",
    alternatives:
      "Reject duplicates (turns a normal retry into an error); treat a re-merge as a new contribution (double-counts the life and breaks AD-3).",
    refines: ["AD-3", "J-4"],
  },
  {
    id: "D-009",
    title: "Excision works per distillate; empty batches vanish; the re-derived chain",
    decision:
      "The unit of excision is the distillate (one life). Excision replays the recorded batches from genesis in order, dropping the excised distillates from each, and skips any batch left empty. The resulting chain, batches and state replace the recorded ones; this is exactly the chain that merging the remaining distillates in the same batches would have produced. The excised distillates' content is deleted; an ExcisionRecord with ids, digests, prior and new head and the authorisation is appended.",
    why: "One life is one distillate, which is what makes deletion 'by name' possible. Dropping empty batches is required for bit-identity with a store that never saw the excised lives: such a store would have no version for a batch that contained only them.",
    paper:
      "Samsara, 'Unlearning by Replay': replay the merge history with the forgotten distillates left out; the re-derived chain is bit-identical to the chain the remaining distillates would have produced; an ExcisionRecord with identifiers and digests is appended.",
    alternatives:
      "Excise whole batches (coarser than a life when projections merge together); keep empty batches as empty versions (then the chain differs from a store that never merged the excised lives).",
    refines: ["S-5", "S-3", "I2"],
  },
  {
    id: "D-010",
    title: "The leakage validator: trace, tokens, normalisation, the 4-token rule",
    decision:
      "The trace of a life is the ordered list of trace entries carried by its accepted acts. Text is normalised with Unicode NFKC and then lower-cased with the locale-independent default case mapping. Tokens are the maximal runs of Unicode letters, marks and numbers (\\p{L}\\p{M}\\p{N}); everything else separates tokens, including the underscore, so `traveler_profile` is two tokens (spec review G-50). The trace is read as one token sequence: the tokens of its entries, entry after entry, so a run may span two entries (spec review G-51). A guidance leaks iff some 4 consecutive tokens of it occur as 4 consecutive tokens of that sequence. Guidance with fewer than 4 tokens never leaks.",
    why: "NFKC plus lower-casing defeats trivial evasion by case or compatibility characters; word-character tokens ignore punctuation and spacing. Runs span entries because the paper blocks 'any run of four or more tokens from the trace', and one episode is split into entries by the harness, not by the principal: the same guidance must not pass or fail depending on where a harness cut the episode (spec review G-51; the kit first kept runs inside one entry, which was weaker than the paper). The underscore separates tokens because treating it as a word character would make any snake_case string one token, so 'prefer_early_departures_from_lisbon' would carry a whole trace sentence past a 4-token rule; the paper's remark that 'short identifiers pass it by construction' still holds for identifiers of up to three tokens (one canary such as PII_x7k2m9q4 is two tokens and passes, which reproduces the paper's stated limitation), while a field name with its value ('traveler_profile: PII_x7k2m9q4') or two canaries together are four tokens and are refused. That is stricter than the paper's wording and deliberate (spec review G-50): the kit reads the paper's sentence as a limitation it reports, not as a promise to keep.",
    paper:
      "Samsara, 'Samskara': a validator blocks any run of four or more tokens from the trace surviving into guidance; 'Limitations': the validator is n-gram level, so short identifiers pass by construction.",
    alternatives:
      "Whitespace tokens (punctuation glued to words would let 'fare,' evade 'fare'); character n-grams (more sensitive, but not what the paper specifies); runs inside one entry only (the kit's first reading: a harness that splits an episode into short entries would switch the validator off, spec review G-51); the underscore as a word character (snake_case would smuggle arbitrary runs as one token, spec review G-50).",
    refines: ["S-1"],
  },
  {
    id: "D-011",
    title: "How the consent grid authorises persisting a disposition",
    decision:
      "Each disposition declares its data category. Persisting it is the 'storage' and the 'training' usage of that category (D-058; this decision first read training alone). The manifest's consent grant resolves the sensitivity of each (category, dimension): the exact cell, else the category's default row (a grant has at most one per category, D-042), else 'low'. The disposition may persist iff the stricter of the two sensitivities is at or below the grant's persist_ceiling, which is 'low' or 'medium'; 'high' never persists.",
    why: "The consent grid gives a sensitivity, not an allow/deny; a ceiling chosen by the principal converts one into the other while keeping 'high' as an absolute refusal.",
    paper:
      "Samsara, 'Samskara': persistence requires consent recorded in the consent protocol's usage grid. The consent protocol: nine categories, eight dimensions, sensitivity per cell, resolution by exact cell, then default row, then low.",
    alternatives:
      "Only 'low' persists (no way for a principal to allow medium-sensitivity lessons); a per-disposition consent token (heavier, and duplicates the grid).",
    refines: ["S-1"],
  },
  {
    id: "D-012",
    title: "S-2 mechanics: sign follows valence, magnitude bounded by it, zero confidence inadmissible",
    decision:
      "Every disposition's weight MUST have the sign of the signal's valence, compared strictly: a weight of 0 is accepted only when the valence is 0, and a valence of 0 accepts only weight 0. In addition |weight| <= |valence|. A signal whose confidence is 0 is rejected (S-2), except in the empty no-feedback distillate of D-057, which carries no weight. Confidence enters the merge as the contributor weight (D-002). These are rejections with S-2, not schema errors.",
    why: "The distiller may express that some lessons mattered less than others (smaller magnitude) but can neither flip the principal's judgement nor amplify it.",
    paper:
      "Samsara, 'Samskara': valence is computed under the principal's satisfaction model so the distiller cannot substitute its own judgement; a zero-confidence signal is inadmissible; a rejected life leaves negative impressions even where its individual actions succeeded.",
    alternatives:
      "Weight = valence exactly (leaves no room for per-rule relevance); only the sign constrained (lets a weak signal produce strong rules).",
    refines: ["S-2"],
  },
  {
    id: "D-013",
    title: "Corrective versus reinforcing distillates",
    decision:
      "A distillate is corrective iff its signal valence is negative (the principal rejected the life); otherwise it is reinforcing. Corrective obligations travel under custody, reinforcing ones best-effort.",
    why: "The sign of the principal's judgement is the only input that says whether the life was rejected.",
    paper:
      "Samsara, 'Janma': a distillate recording a life the principal rejected travels under custody; a reinforcing distillate travels best-effort.",
    alternatives:
      "A threshold below zero (arbitrary); a flag chosen by the distiller (lets the distiller decide how much care a rejection gets).",
    refines: ["J-4"],
  },
  {
    id: "D-014",
    title: "Time is logical ticks; the TTL deadline",
    decision:
      "All times are integer logical ticks supplied by the caller; no wall clock is ever read. An instance born at tick b with TTL t may act at ticks b <= tick < b + t; at tick >= b + t it must be withdrawn ('janma.expire' does it) and any act is rejected. Ticks never decrease across accepted commands (TICK_REGRESSED).",
    why: "Deterministic replay and differential testing need time as an input.",
    paper: "Samsara, 'Janma' and 'Bounded Lifetimes': lifespan is declared as the instance TTL in the manifest.",
    alternatives:
      "Wall-clock seconds (non-deterministic); TTL counted in acts (the paper speaks of lifespan, and termination predicates already count acts).",
    refines: ["J-3"],
  },
  {
    id: "D-015",
    title: "The termination-predicate language",
    decision:
      "A termination condition is {id, when} where 'when' is a JSON predicate: acts_at_least n, failures_at_least n, consecutive_failures_at_least n, ticks_since_birth_at_least n, tool_used tool, and the combinators all, any, not. Conditions are evaluated in declaration order after every accepted act; the first that holds withdraws the instance, and the withdrawal names it.",
    why: "Predicates must travel as JSON, be total and side-effect free, and be evaluable identically by any implementation.",
    paper:
      "Samsara, 'Bounded Lifetimes': the manifest declares termination conditions alongside the TTL; a predicate is bound to each and evaluated after every act; J-3 is met by whichever arrives first.",
    alternatives:
      "An expression language such as CEL or JSONLogic (a dependency and a much larger surface to conform to); code hooks (cannot travel as JSON).",
    refines: ["J-3"],
  },
  {
    id: "D-016",
    title: "Capability algebra",
    decision:
      "A capability is dot-separated lowercase segments ('fare.search'). A grant is a capability or a prefix wildcard 'p.*' covering every capability strictly below p. An act is in scope iff its tool was bound at birth, the capability is one of that binding's capabilities, and some grant covers it. Grants are fixed at birth and never grow.",
    why: "A prefix algebra is the smallest one that lets a manifest grant a family of operations while keeping the covering check a string comparison every language does identically.",
    paper:
      "Samsara, 'Janma': capability grants and tool bindings are declared in the manifest; J-2: what an instance can do never exceeds what it was granted.",
    alternatives:
      "Flat capability names only (verbose manifests); full attribute-based policies (a policy language to specify and conform to).",
    refines: ["J-2", "J-1"],
  },
  {
    id: "D-017",
    title: "What 'resolved' means for J-1, and nothing is acquired after conception",
    decision:
      "Birth resolves against an environment the caller supplies: offered tools with their capabilities and grantable capabilities. Birth succeeds iff the pinned version is in the current chain and not quarantined, every bound tool is offered with at least the bound capabilities, and every grant is grantable. Any attempt to acquire a tool or capability after conception is rejected (J-1 for tools, J-2 for capabilities). The state 'avyakrta' is reported for instance ids never conceived.",
    why: "Making the environment an input keeps the model pure and lets tests drive both the success and every failure of resolution.",
    paper:
      "Samsara, 'Janma': birth resolves every declared dependency before READY, and nothing is acquired after that; the lifecycle figure: avyakrta, conceived, ready, active, withdrawn, dissolved.",
    alternatives:
      "Resolve against a global tool registry held in the world (a second source of truth); allow late binding before READY (the manifest would no longer be complete).",
    refines: ["J-1", "J-2"],
  },
  {
    id: "D-018",
    title: "Custody of the distillation obligation: attempts, deadline, outcomes",
    decision:
      "The obligation id is its idempotency key. Delivery attempts are scripted by the caller with what they observed: declined, deferred or lost; 'applied' is produced only by a merge that includes the obligation. A corrective obligation allows max_retries + 1 attempts, all strictly before the deadline (D-060); declined discharges it as declined, exhausting the attempts or reaching the deadline ('custody.expire') discharges it as escalated. A reinforcing obligation is delivered best-effort: declined discharges it as declined, deferred or lost as best_effort. A discharged obligation cannot be applied later. Backoff between attempts is the sender's scheduling and is not checked.",
    why: "These are the custody protocol's rules; the scripted channel lets tests reach every terminal outcome deterministically.",
    paper:
      "Samsara, 'Janma': outcome always reported as applied, declined or escalated rather than lost silently. The custody protocol: terminal outcomes applied/declined/escalated/best_effort; at most max_retries + 1 attempts before the deadline; deferred extends nothing.",
    alternatives:
      "Unlimited retries (an obligation could stay pending forever, so the instance could never dissolve); treat lost as declined (a lost message is not an answer).",
    refines: ["J-4"],
  },
  {
    id: "D-019",
    title: "The quarantine fail-safe and refusal to descend from a quarantined pin",
    decision:
      "Every corrective obligation declares its fail-safe: quarantine the store version the life was born from (a reinforcing one declares none, D-063). It applies when a corrective obligation is declined or escalated. A quarantined version cannot be pinned by a new conception (J-4), cannot be born from (J-1), and an agent whose head is quarantined cannot descend (J-4). Excision does not change the quarantined set.",
    why: "If a corrective lesson cannot be delivered, the version that produced the rejected life must not produce more lives; quarantining that pin is the conservative action.",
    paper:
      "Samsara, 'Reference Implementation': custody retry, the quarantine fail-safe, and refusal to descend from a quarantined pin. The custody protocol: an obligation is admissible only if it declares its fail-safe; on declined the fail-safe still applies.",
    alternatives:
      "Quarantine the head instead of the pin (punishes lineages unrelated to the rejected life); no fail-safe on declined (the lesson would be lost silently).",
    refines: ["J-4", "J-1"],
  },
  {
    id: "D-020",
    title: "What projection statelessness means operationally",
    decision:
      "A projection (instance) holds only its identity, nonce, manifest, lifecycle counters and its episode trace until distillation. It has no store of its own and no operation lets it write the agent's store: 'advaita.project_write' is always rejected, and the only path from a projection to the store is its one distillate, merged after withdrawal. Nonces are unique per identity.",
    why: "The paper's guarantee that 'everything an instance contributed is one object in one merge batch' needs a closed door, which the kit makes testable by offering the door and requiring it to stay shut.",
    paper:
      "Samsara, 'Advaita': running instances are projections distinguished by nonces that carry attribution but no identity; AD-2 projection statelessness.",
    alternatives:
      "Allow projections a private scratch store that is discarded at death (the trace already plays that role).",
    refines: ["AD-2"],
  },
  {
    id: "D-021",
    title: "Action signing scheme",
    decision:
      "An action is signed by binding it to its projection: signature = H('advaita/action/v1', {identity, nonce, manifest_digest, action}). The act is rejected (AD-4) unless the identity, nonce and manifest digest are the instance's and the signature recomputes. This is an attribution binding, not a proof against a forger who knows the inputs; deployments that need unforgeability wrap the same preimage in an asymmetric signature.",
    why: "The invariant is traceability to the projection; a deterministic binding is checkable by any implementation without key management, which the papers leave out of scope.",
    paper: "Samsara, 'Advaita': actions are signed (identity, nonce, manifest).",
    alternatives:
      "Ed25519 signatures with per-projection keys (needs key distribution the papers do not specify); no signature, only fields (a mismatch between fields and action would go unnoticed).",
    refines: ["AD-4"],
  },
  {
    id: "D-022",
    title: "Governance: custodians authorise body evolution, identity updates and memory repair",
    decision:
      "Each agent declares its custodians at installation. A governed change (identity update, body evolution, excision, rollback) carries an authorisation {custodian, decision_id}, valid iff the custodian is declared. Without it the change is rejected with the invariant it would break (I1, I3, I2, I4 respectively).",
    why: "The papers require these changes to be 'separately authorized' by human custody; a declared custodian list is the smallest checkable form of that.",
    paper:
      "RIPA, Section 3.2: deployment authority, secret release, identity update and promotion policy remain externally governed; Section 2.2: separately authorized memory repair, body evolution or identity update.",
    alternatives:
      "Quorum of custodians (stronger, but no paper asks for it); signed governance tokens (key management out of scope, as in D-021).",
    refines: ["I1", "I2", "I3", "I4"],
  },
  {
    id: "D-023",
    title: "Karmic momentum: both distances, threshold and window",
    decision:
      "κ_n is computed per merge batch. Weight-only: the sum over keys of |w_n(k) - w_{n-1}(k)|, absent keys counting 0. Guidance-aware: as weight-only, except that a key present in both states with different guidance counts |w_{n-1}(k)| + |w_n(k)| (full turnover). Converged iff at least W batches exist and the last W values of κ are all below θ; defaults W = 3 and θ = 10000 (0.01).",
    why: "The paper reports that the two readings disagree (rewording counts as turnover only in the second), so the kit offers both and lets users choose.",
    paper:
      "Samsara, 'Bounded Lifetimes' (κ_n = d(σ_(n-1), σ_n)) and 'Convergence and Portability' (weight displacement reaches zero while guidance keeps being rewritten).",
    alternatives:
      "Euclidean distance (not integer-exact); guidance edit distance (needs a tokenisation choice of its own).",
    refines: ["S-4"],
  },
  {
    id: "D-024",
    title: "I2: memory ancestry extends; the samskara store lives in memory M",
    decision:
      "Memory M holds an append-only list of snapshot digests, the samskara store head and the task ids. A snapshot is H('ripa/memory-snapshot/v1', {prev, cause, store_head, task_ids}); it is appended on installation, every merge, every excision and every task start. An excision is the 'separately authorised memory repair': it rewrites the store chain but still appends to the memory ancestry. A migration carries the memory head and store head and must arrive at the same ones.",
    why: "An explicit ancestry makes 'extends, never silently resets or forks' a prefix check.",
    paper: "RIPA, Section 2.2: v_M(t) precedes-or-equals v_M(t+1), an auditable continuation; Section 4 (I2).",
    alternatives:
      "Memory version counter only (cannot detect a fork that keeps the count); a Merkle DAG of memory objects (more general than the kit needs).",
    refines: ["I2", "S-3"],
  },
  {
    id: "D-025",
    title: "I5: the capability delta and how it fails closed",
    decision:
      "At validation the delta is computed between the union of the bound providers' capabilities (source) and of the target providers' capabilities: gained, lost, unchanged, each sorted, and recorded in the migration and its report. A required capability the target does not grant rejects the migration (fail closed). Gained capabilities need a valid gain authorisation. An effect names its provider and is rejected if that provider does not grant the capability; nothing picks another provider.",
    why: "Loss must be explicit and fail closed, gain must be authorised, and substitution must never be silent.",
    paper:
      "RIPA, Section 3.1 (missing capability explicit, fail closed, no silent provider selection) and Section 7.3 (capability gain should require authorisation).",
    alternatives:
      "Warn on loss (the paper says fail closed); allow any gain (the paper says gain requires authorisation).",
    refines: ["I5"],
  },
  {
    id: "D-026",
    title: "Which RIPA operations exist and how migration is phased",
    decision:
      "Operations: restart, task start and resume, request and reply (attempt nonces), effect, evolve, identity update, bind surface, replicate, descend, and migration in six commands (fence, checkpoint, validate, bind, rehydrate, resume) plus cancel (rollback). Authority tokens are caller-supplied and single-use per agent. Fence advances the generation and leaves no holder; resume takes generation max(current, source floor) + 1. Phase commands out of order are rejected with I4.",
    why: "Each row of the RIPA lifecycle table becomes an operation so that its continuity consequence can be tested.",
    paper:
      "RIPA, Table 1 (restart, resume, migrate, evolve, identity update, replicate, descend/fork) and Section 4 (six phases; rollback only by explicit decision that no target is active).",
    alternatives: "One 'migrate' command (would hide the intermediate states where crashes and stale effects matter).",
    refines: ["I1", "I2", "I3", "I4", "I5", "I6"],
  },
  {
    id: "D-027",
    title: "Atomicity: one accepted command is one durable write",
    decision:
      "Every accepted command is atomic: after a crash, either all of its effects are durable or none are. A crash cut is therefore well defined as 'after the k-th accepted command'. An implementation that splits one command across several files must commit them through a journal or manifest written last and recover on start. Rejected commands write nothing.",
    why: "Crash-cut testing needs a unit; the command is the unit every reply already acknowledges.",
    paper:
      "RIPA, Section 5.1: the reference implementation's multi-file conversion and import are not crash-atomic; recovery from every partial-write state was not demonstrated. The kit requires it.",
    alternatives: "Per-phase atomicity inside commands (harder to specify and to test without internal knowledge).",
    refines: ["S-3", "I2", "I4"],
  },
  {
    id: "D-028",
    title: "A malformed distillate is an S-1 rejection",
    decision:
      "The distillation command accepts any JSON as its distillate and parses it strictly inside the operation; a schema failure (an unknown field such as 'episode', a wrong type, a duplicate key) is rejected with S-1 and the issue path, not with MALFORMED.",
    why: "S-1 is enforced at the schema level; a conformance report should say that the distillate tried to carry a non-dispositional field, not that the request was malformed.",
    paper:
      "Samsara, 'Samskara': the privacy boundary is auditable at the schema level; 'Where Capability Lives': S-1 is schema-level.",
    alternatives:
      "Parse the distillate with the command (a trace field would be reported as a generic malformed request).",
    refines: ["S-1"],
  },
  {
    id: "D-029",
    title: "The episode trace is destroyed when the distillate is accepted",
    decision:
      "A life's trace is kept from its first act until its distillate is accepted, because the leakage validator needs it; it is destroyed in that same atomic step. A withdrawn but not yet distilled instance still holds its trace. Implementations must not write trace content anywhere that survives distillation.",
    why: "Forced withdrawal (TTL, predicate) happens before the distiller has run; destroying the trace at withdrawal would make the leakage check impossible.",
    paper: "Samsara, 'Samskara': at withdrawal the trace is reduced to a distillate and the episodes are destroyed.",
    alternatives:
      "Destroy at withdrawal and validate leakage against a digest of n-grams (keeps a derived form of the trace, which is still trace-derived data).",
    refines: ["S-1", "J-4"],
  },
  {
    id: "D-030",
    title: "The world holds many agents; descend starts a new lineage",
    decision:
      "The world is a set of agents keyed by identity plus the set of lineage roots ever used. Descend creates a new agent with a fresh unique root, the parent's base digest, body revision, custodians and providers, and an empty store at its own genesis: a new identity and a new private-state boundary. Dispositions are not copied.",
    why: "Root uniqueness (AD-1) is a property across lineages and can only be checked with more than one of them.",
    paper:
      "RIPA, Table 1: descend / fork creates an independently governed substrate with a new identity and private-state boundary. Samsara, 'Advaita': minting an identity requires a unique root.",
    alternatives:
      "Copy the parent's distillates into the child's first batch (would share lives between two identities, so excising a life in one would not excise it in the other).",
    refines: ["AD-1", "J-4"],
  },
  {
    id: "D-031",
    title: "AD-3 promises an identical state; version ids also record batching",
    decision:
      "Merging the same set of distillates yields the same store state and state digest whatever the order, batching or duplication. Version ids additionally encode the batch sequence, so different batchings give different chains with the same final state; the same batch merged in any internal order gives the same version id. The AD-3 statement in the invariant catalog and OP-1.2a say this weaker promise where AD-3 is stated (spec review G-52), and the highest-weighted contributor's final tie-break (the smallest distillate id, D-007) is what keeps the leader, hence the state, independent of arrival order.",
    why: "The version id must bind history for S-3 and S-4; the state is what the paper requires to converge.",
    paper:
      "Samsara, 'Advaita': any two nodes merging the same distillate set compute the identical store version; 'Results': the merge imposes a canonical order internally.",
    alternatives: "Version id = state digest (loses history, see D-006).",
    refines: ["AD-3", "S-4"],
  },
  {
    id: "D-032",
    title: "Check order and the choice of rejection code",
    decision:
      "Every operation's checks apply in the order spec/OPERATIONS.md lists them, after the common checks (schema, tick, agent). The first failing check decides the rejection code. Rejections that protect no invariant use the generic codes MALFORMED, TICK_REGRESSED, NOT_FOUND and DUPLICATE_ID. The code and the invariant are normative; the message and the issue path are informative (they SHOULD name what was wrong and where, but two conforming systems may word and locate it differently, e.g. a list versus the offending element of it).",
    why: "Differential testing compares rejection codes; two correct systems must agree on which of several violated rules is reported.",
    paper: "Neither paper orders checks; the reference implementation raises the first violated invariant.",
    alternatives: "Report every violated invariant (a set is harder to compare and to implement identically).",
    refines: ["J-1", "S-1", "AD-3", "I4"],
  },
  {
    id: "D-033",
    title: "I6: reserved label keys",
    decision:
      "Labels attached to surfaces and migrations are free-form metadata, except that the keys identity, designation, identity_version, agent and self are reserved and rejected with I6. Labels never change the identity record.",
    why: "The failure I6 guards against is a label standing in for the installed identity; refusing labels that claim to be the identity makes that testable.",
    paper:
      "RIPA, Section 4 (I6): execution, process, interaction-surface and deployment labels remain environment metadata and do not overwrite the installed identity.",
    alternatives: "Accept and ignore such labels (the failure would be silent).",
    refines: ["I6"],
  },
  {
    id: "D-034",
    title: "Conformance: the family of an operation, and the bootstrap operation every profile accepts",
    decision:
      "An operation belongs to the family named by the prefix of its op (janma., samskara., advaita., ripa.); custody.* (the delivery of a distillation, guarded by J-4) belongs to janma. A conformance runner sends no operation of a family outside the declared profile (W-5.2), except advaita.mint, the bootstrap that creates the agent every other operation names: it is sent to any implementation that declares at least one family. AD-1 is still reported not applicable unless advaita is declared. A golden session that uses an operation outside the profile is not applicable as a whole.",
    why: "Without an agent no janma, samskara or ripa operation can be exercised, and mint is the only way to make one; a runner that withheld it from a janma-only implementation could certify nothing. Prefix-based families are what an implementer in another language can compute without reading the kit.",
    paper:
      "Samsara defines Janma, Samskara and Advaita as layers of one agent whose identity Advaita mints; RIPA assumes an agent exists. Neither paper speaks of partial implementations or profiles.",
    alternatives:
      "Require advaita in every profile (forbids an honest janma-only implementation); a separate bootstrap request outside the command set (a second way to create agents, untested by the invariants); treating custody.* as samskara (but J-4 owns the obligation it discharges).",
    refines: ["AD-1", "J-4"],
  },
  {
    id: "D-035",
    title: "Conformance: attributing a disagreement to an invariant",
    decision:
      "When an implementation disagrees with the reference model the runner reports the violated invariant by these rules, in order. (1) The model rejected under invariant M and the implementation accepted: M. The implementation rejected under I where the model accepted: I. Both rejected with different codes: M, else I. A rejection with a generic code (MALFORMED, NOT_FOUND, DUPLICATE_ID, TICK_REGRESSED) names no invariant on the wire, and stands for the invariant its failing check protects: spec/checks.json `protects` for a check whose subject one invariant owns (a duplicate provider id, OP-5.1.c2: I5; an excision's targets, OP-4.2.c4: S-5), spec/json-schema/rules.json `protects` for a MALFORMED from a uniqueness rule (two default rows for one category: S-1). The model's failing check is known (the golden line's and the trace step's informative `model` note); the implementation's is not on the wire, so its code stands for an invariant only when every check of the operation that rejects with that code protects the same one. A lookup of an agent, an instance or a migration, the schema and the tick protect none. An invariant a rejection names on the wire comes before one inferred from a check: when both rejected, M, else I, and only when neither names one, what the model's check protects, else what the implementation's code stands for (an excision the implementation refuses for its authorisation, I2, where the model refuses the reused excision id first, is I2's: the implementation's order of checks is what is wrong). (2) The replies agree but the events or the world view differ: the field that differs names it (store lineage links: S-3, or S-5 after an excision, S-4 after a replay; store state and retained distillates: AD-3 after a merge, S-5 after an excision, S-4 after a replay; momentum: S-4, or S-5 after an excision; held trace entries: S-1; obligations: J-4; substrate identity, memory, body: I1, I2, I3; authority, effects, attempts, fences and markers: I4; providers and required capabilities: I5; surfaces and labels: I6; and, for a field this list leaves out, the owner its clause names, conformance/oracle/field-owners.ts, each row with its clause). An event names the owner of what it reports. When several fields differ the most specific wins: content before the digests and links that bind it. (3) Otherwise the first invariant in catalog order that guards the operation, or the first invariant of the operation's family. A divergence with no invariant (a break of the wire protocol) is reported under its W rule.",
    why: "A certificate is read per invariant; a failure must land on the invariant a person would fix. Rule (1) uses the model's own rejection, which names the invariant it protects or, for a generic code, the check it failed at; rule (2) maps each observable field to the invariant that owns it; rule (3) keeps every disagreement attributable, and is where what the wire does not say ends up: an implementation that refuses with DUPLICATE_ID what the model accepts, at an operation with two DUPLICATE_ID checks protecting different invariants, is reported under the operation's first guard, and the kill matrix reports that mutant as killed under another invariant, with this reason. The kill matrix measures the rules: each mutant's label is decided from the spec alone, and a mutant killed under another invariant is either a wrong label or a wrong rule, decided per mutant (conformance/mutants/decisions.json).",
    paper: "The papers state invariants, not how to blame a failing implementation.",
    alternatives:
      "Report every invariant the operation guards (vague: one bug would fail several rows); report only the step (a person would have to work out the invariant); evaluate the model's predicates on the implementation's state (needs the internal state, which only the world view exposes); put the failing check on the wire (W-9 would have to compare check ids, which would make the order of an implementation's checks normative beyond the first failing code); treat every generic-code rejection by rule (3) (the kill matrix showed that it blames root reuse, AD-1, for a duplicate provider id).",
    refines: ["AD-3", "S-3", "S-4", "S-5", "I4"],
  },
  {
    id: "D-036",
    title: "Conformance: verdicts, witnesses and exit codes",
    decision:
      "Each of the 19 invariants gets exactly one verdict: not-selected (--only left it out; decided first, so a finding, a stage that could not finish or a missing witness concerning it changes nothing), fail (a finding is attributed to it: decided before not-applicable, because an operation of a declared family can check an invariant of another — janma.distil checks S-1, S-2 and AD-3 — and a disagreement there is a violation whatever the profile, D-049), not-applicable (its family is outside the profile, or the profile cannot reach it, D-049), inconclusive (no handshake; a stage that concerns it could not finish because the implementation could not be driven or the time budget ended; or it has no witness at all), or pass. Witnesses are accepted steps of an operation it guards whose reply equalled the model's, agreed rejections under it, crash cuts, algebra checks and byte scans that concerned it. Not-applicable and not-selected are never counted as a pass, and a not-selected invariant never makes a run fail or inconclusive. The exit code is 1 when a failure is not in the --expected-failures baseline or a baseline entry passed (stale), else 2 when anything is inconclusive, the runner itself faulted, or no invariant passed at all (an empty profile, or --only naming only families outside the profile, certifies nothing), else 0.",
    why: "A verification tool that reports a pass for something it never exercised, or for a family the implementation does not have, certifies nothing. One function decides verdicts and the exit code so that no two consumers count a result two ways.",
    paper: "The papers state the invariants; certification is the kit's own contribution.",
    alternatives:
      "Pass when no violation was seen (vacuous passes); count not-applicable as pass (skips read as green); a separate errored verdict (kept inside inconclusive, with the reason); report invariants left out by --only as not-applicable (it read as a property of the implementation's profile, when it is a choice of the run, so not-selected is its own verdict and the verdict set is five).",
    refines: ["J-1", "S-5", "AD-3", "I4"],
  },
  {
    id: "D-037",
    title: "Conformance: what the differential campaign compares, and when",
    decision:
      "Commands are generated from the reference model's world view (never from the implementation's), so one seed sends the same commands to every implementation. The normative part of every reply (W-9) is compared at every step; the whole world view is compared after every 10th command and after the last command of every run. Each run starts with reset (W-2.4) and disables a random subset of operation kinds other than mint (swarm testing). A failing run is shrunk over the wire: every attempt is a reset and a replay of a smaller choice list, within the time budget; the shrunk case is replayed once more and reported as not reproducible if it passes then.",
    why: "Generating from the model makes the campaign reproducible across implementations and keeps an implementation's own mistakes from steering the generator. Comparing the world view at checkpoints rather than after every step keeps the campaign fast while still pinning any hidden divergence to at most 10 steps, which shrinking then narrows further.",
    paper:
      "Samsara's AD-3 and S-4 and RIPA's continuity invariants are statements about observable state; the papers do not describe testing.",
    alternatives:
      "Compare the world after every step (about twice the traffic); generate from the implementation's view (the generator would follow a buggy implementation's state and explore less); restart the process between runs instead of reset (slower by a process start per run).",
    refines: ["AD-3", "S-4", "S-5", "J-1", "I4"],
  },
  {
    id: "D-038",
    title: "Conformance: sharded campaigns and merged certificates",
    decision:
      "A certification campaign is a list of units per stage: each golden session; the wire catalog, the handshake and the forgetting scenario (one unit each); each generated differential run, whose seed is derived from the campaign seed and the run's index alone; each algebra merge group (its schedules are compared with each other, so it stays whole) and each excision case; each crash cut (hook cuts, reset cuts, then black-box kills, in that order). Unit k of stage s belongs to shard (k + position of s in the stage order) mod n. srk merge accepts only certificates of one campaign (same spec digest, implementation name and version, profile, protocol version, seed, runs, --only, baseline and shard count) covering every shard exactly once; stages merge most-severe-first, checks, witnesses and transition counts are summed, every counterexample is kept, and the invariants' verdicts are decided again from the summed witnesses by the same rules as any run (D-036).",
    why: "The union of the shards must be exactly the unsharded campaign with the same seed, so that a result never depends on how many machines ran it; deriving each run's seed from its index (rather than from a shared random stream) is what makes a run independent of which shard runs it. Deciding verdicts after summing keeps the vacuity guard about the whole campaign: an invariant witnessed only in shard 2 is not inconclusive because shard 1 never saw it.",
    paper:
      "The papers say nothing about testing at scale; AD-3 and S-5 are the properties a long fuzzing campaign is for.",
    alternatives:
      "Split by time (not reproducible); give each shard its own seed (the union would not be a campaign one machine could run); combine the shards' verdicts without re-deciding (vacuity would be judged per shard). The black-box kills of the crash stage land at moments that depend on timing, so their witness counts may differ between two runs of the same campaign, sharded or not; every other count is exact.",
    refines: ["AD-3", "S-5"],
  },
  {
    id: "D-039",
    title: "Wire: request ids stay unique for the whole process, remembered compactly",
    decision:
      "W-2.1 is unchanged: every id that can be read counts as used until the process ends, in any order, and reusing one gets DUPLICATE_REQUEST_ID; no rule lets an implementation forget ids. What an implementation retains for this is its own business, and the kit's implementation keeps it small: each id is encoded injectively into bytes (a type tag, then the integer in base 256, or the string's UTF-16 code units, one byte each when all are below 256) in one growing byte arena, found again through an open-addressing table of arena offsets. 370,000 runner-style ids (u<k>.t<i>) take 11.4 MB, about 31 bytes an id, where a Set of strings took about 130.",
    why: "Measured on the kit's implementation: streaming 370,000 distinct ids (wire-<i>-abcdefgh, world queries, pipelined) grew the process to about 350 MB of resident memory and kept about 300 MB, but after a full garbage collection only 58 MB of the heap was live, about 48 MB of it the Set of ids (about 130 bytes an id: the id string, the 'type:id' key string and the hash-table entry). The rest was garbage of the answered requests and heap the engine had not yet returned to the system, not memory the protocol makes an implementation keep. With the arena the same stream leaves 12 MB of live heap plus 15 MB of arena and table, and 157 MB resident after a collection instead of 227 MB. Exact duplicate detection is what lets a runner resend nothing by mistake: a command re-sent under a used id is refused without being executed, so an effect, an epoch advance or a merge cannot happen twice through the wire. The conformance runner uses ids such as u3.t17, r12, h-ok and wire-… and its hostile tests reuse ids on purpose, so any rule about their order would break runners that conform today.",
    paper: "The papers do not describe a wire protocol; request ids and their uniqueness are the kit's own (W-2.1).",
    alternatives:
      "Require increasing ids so an implementation keeps only the largest (breaks the conformance runner's id scheme and the hostile tests that reuse ids); let an implementation forget ids after a window of N requests (a reused old id would then be executed, silently weakening W-2.1); cap the number of requests per process and require a restart (a new failure mode for long campaigns, with no memory to save that the compact encoding does not already save).",
    refines: ["I4", "S-3"],
  },
  {
    id: "D-040",
    title: "Wire: nothing is read or executed after an acknowledged shutdown",
    decision:
      "Once the implementation has written the reply to shutdown it reads and executes nothing more: lines that follow, even in the same chunk of input, get no reply and have no effect, and the process exits with status 0. This is the one exception to W-1.6's one reply per non-empty line. A runner that needs a request executed sends it before shutdown.",
    why: "The kit's implementation used to answer shutdown, then finish the chunk it had read: a reset written right after shutdown was answered, committed and wiped the state the runner had just been told was final. A process that is shutting down must not change durable state nobody will ever see answered, and the runner must be able to rely on the state at shutdown being the state after the last request before it.",
    paper: "The papers do not describe a wire protocol; shutdown is the kit's own (W-2.2).",
    alternatives:
      "Execute what was already read and stop at the end of the chunk (the outcome would depend on how the operating system split the input); answer later lines with an error (a reply after the shutdown reply breaks the runner's expectation that the process exits, and the lines would still have to be read).",
    refines: ["I2", "S-3"],
  },
  {
    id: "D-041",
    title: "String lengths are counted in Unicode code points",
    decision:
      "Every length bound on a string anywhere in the spec (designation 1-200, guidance 1-1000, mission 1-4000, a trace entry up to 4000, model_version, execution and surface texts, label values, the wire request id 1-128, protocol versions, settings keys, implementation name and version) counts Unicode code points (scalar values): an astral character such as U+1F680 counts 1, not 2 (spec review G-6). The exported JSON Schemas state the bounds as minLength/maxLength, which count code points, and the zod schemas count code points through one shared helper (Text in the schemas' common module), so both accept and reject the same strings; spec/json-schema/rules.json therefore lists no length rule. Identifiers, capabilities, disposition keys and label keys are ASCII by their patterns, so every unit agrees on them. A string longer than its bound fails the schema: MALFORMED for a command (OP-0.2), S-1 inside a distillate (D-028), BAD_REQUEST for a request id (W-2.1).",
    why: "A bound must mean the same in every language: JSON Schema (draft 2020-12, section 6.3.1), Python's len, Rust's chars().count() and Go's utf8.RuneCountInString count code points, while only JavaScript and Java strings count UTF-16 code units; the JSON Schemas are what other implementations validate with, so the TypeScript schemas follow them, not the other way round. The golden session session-schema pins the boundaries (200 astral characters in a designation accepted, 201 rejected; 1000 astral characters in a guidance accepted, 1001 rejected) so that an implementation counting UTF-16 units or bytes fails a golden line.",
    paper:
      "The papers bound no string; the bounds are the kit's own (D-027: no field may exhaust a reader), so their unit is the kit's choice.",
    alternatives:
      "UTF-16 code units (zod's default; the review's guess): JSON Schema would then disagree with zod on every astral character, and every other language would have to re-encode to count. UTF-8 bytes (bounds the storage exactly, but a 200-character limit that admits only 50 emoji surprises a writer, and JSON Schema cannot express it). Grapheme clusters (depend on the Unicode version, like G-10's tokeniser, and no schema language counts them).",
    refines: ["S-1", "I1"],
  },
  {
    id: "D-042",
    title: "A consent grant has at most one default row per category",
    decision:
      "A ConsentGrant whose category_defaults lists two rows for one category fails the ConsentGrant schema at category_defaults.<i> (the second row), exactly as two cells for one (category, dimension) pair fail it at cells.<i> (spec review G-5, G-30): a janma.conceive whose manifest carries such a grant is MALFORMED (OP-0.2) and changes nothing. Both uniqueness rules are listed in spec/json-schema/rules.json (ConsentGrant.unique-cells, ConsentGrant.unique-category-defaults), because JSON Schema cannot express uniqueness of one member within an array. Hence D-011's 'the category's default row' is well defined: the one row of category_defaults whose category is the disposition's, if there is one; resolution never has to choose between rows, and no reading of 'first row wins' or 'last row wins' arises.",
    why: "Two default rows for one category contradict each other when they differ and are redundant when they agree; accepting them would make the S-1 consent verdict of every later distillation depend on a tie-break rule (first or last) that the consent protocol does not state, and the review's implementer guessed 'first wins'. Refusing the grant where it is declared, at conception, keeps the decision with the principal, and matches the cells rule the schema already had.",
    paper:
      "Samsara, 'Samskara', and the consent protocol it cites: resolution by exact cell, then the category's default row, then low; the protocol speaks of one default row per category. Its sources disagree on duplicates: the grid extension's SPEC.md allows at most one declared sensitivity per category, its validator (validate_preferences) rejects two preferences for one (category, dimension) cell, default rows included, and its resolver alone would take the first exact cell and the last default row; the kit follows the validator (D-063 corrects this decision's earlier remark that the protocol says nothing of duplicates).",
    alternatives:
      "Accept duplicates and let the first row win (the review's guess; a silent tie-break the principal never chose); let the last row win (JSON's usual 'last member wins', equally silent); take the most restrictive row (safe, but a grant that says two things is still a mistake better refused at conception than interpreted at every distillation).",
    refines: ["S-1"],
  },
  {
    id: "D-043",
    title: "Wire: a JSON number that is integral is that integer, whatever its spelling",
    decision:
      'A JSON number denotes the IEEE 754 binary64 value nearest to the decimal it spells (round half to even). It is an integer iff that value is integral, and it is then that integer wherever the spec asks for one: request ids, envelope fields and every integer of a command. 1.0, 1e0 and 10E-1 are 1; -0 is 0. So `"tick": 1.0` is tick 1, the request id 1e2 is the id 100 (and collides with an earlier 100 as DUPLICATE_REQUEST_ID), and canonical JSON and digests see only the integer, written in shortest form (W-1.8; spec review G-7).',
    why: "This is JSON Schema's `integer` (a number with a zero fractional part) and what JavaScript's JSON.parse, and Python's json with float(), compute, so the two most likely implementation languages agree with no extra code beyond normalising integral floats. Deciding by value, not spelling, also means no digest can depend on how a runner formatted a number: canonical JSON writes the integer, never the spelling. Reading through binary64 rather than the exact decimal keeps the rule implementable with every standard JSON parser; it differs from the exact decimal only beyond 2^53, where W-2.1 and OP-0.2 already refuse integers.",
    paper:
      "Neither paper has a wire format. RFC 8259 §6 leaves number precision to implementations and recommends binary64 for interoperability; RFC 8785 (used by ENC-1) formats numbers as ECMAScript does.",
    alternatives:
      "Integers must be spelled without fraction or exponent, 1.0 being MALFORMED or BAD_REQUEST (what a parser that keeps floats apart from ints does by default; it rejects JSON that JSON Schema calls an integer, and would need a lexical check in JavaScript, whose parser cannot tell 1.0 from 1); the exact decimal value decides (1.00000000000000001 is not an integer; needs an arbitrary-precision parser in every language); -0 is refused as negative (it is the same value as 0 in binary64 comparison and in JSON Schema).",
    refines: ["AD-3", "S-5"],
  },
  {
    id: "D-044",
    title: "Wire: a line must be I-JSON in two respects, no duplicate member names and no lone surrogates",
    decision:
      "A line whose JSON value holds an object with two members of the same name (compared after unescaping), or a string with a lone surrogate escape (\\ud800 without a following low surrogate escape, or a low one alone), is BAD_JSON with id null (W-1.8, W-4 row 4). Escaped surrogate pairs are the character they encode. Noncharacters are accepted. The kit's implementation checks both with a one-pass lexical scan of the text JSON.parse has accepted (spec review G-8, G-9).",
    why: "RFC 7493 (I-JSON) says member names MUST NOT be duplicated (§2.3) and strings MUST NOT contain surrogate code points (§2.1). With last-wins, a request's meaning depends on the parser (RFC 8259 §4 calls the behaviour unpredictable): a runner and an implementation in different languages could act on different commands from the same bytes, and a value the runner wrote is silently lost. A lone surrogate is not Unicode text: it has no UTF-8 encoding, so the canonical encoding (ENC-2, UTF-8 of RFC 8785) cannot write it and the store cannot hold it portably; refusing the line at the wire keeps it out of every schema, state and digest. No maintained npm JSON parser that reports duplicate names was worth a dependency for a 100-line scan over text that is already known to be valid JSON.",
    paper:
      "Neither paper has a wire format. RFC 8259 §4: names SHOULD be unique; §8.2: strings with lone surrogates are allowed by the grammar but their behaviour is unpredictable. RFC 7493 §2.1 and §2.3 make both MUST NOTs.",
    alternatives:
      "Last-wins for duplicates (JavaScript's and Python's default, which the spec reviewer guessed; it loses information and differs between parsers, some of which keep the first); first-wins; accepting lone surrogates and escaping them as \\udxxx in canonical JSON (what JSON.stringify does; Python's json.dumps with ensure_ascii=False and UTF-8 encoding fails on them instead, so digests would not be portable); replacing them by U+FFFD (silently changes the value); refusing noncharacters too (they are valid scalar values with a UTF-8 encoding, so nothing breaks).",
    refines: ["AD-3", "S-5"],
  },
  {
    id: "D-045",
    title: "The D-010 tokeniser uses Unicode 17.0 character data",
    decision:
      "NFKC, the default lower-casing and the letter/mark/number classes (\\p{L}\\p{M}\\p{N}) of D-010 are those of Unicode 17.0.0, and everything the tokeniser needs of them is normative data: spec/unicode/tokeniser-17.0.json, with the algorithm that reads it in its `algorithm` member. It holds the ranges of the token characters (General_Category L, M or N); the full compatibility decomposition of each of the 5,914 code points that have one, Hangul syllables being decomposed and composed by the arithmetic of Unicode §3.12; the non-starters in 55 groups ordered as their Canonical_Combining_Class values (ranks, not the class numbers: the algorithm only compares classes); the 961 canonical composition pairs, composition exclusions already left out; the full default lower-case mapping of the 1,488 code points it changes, with no language tailoring (U+0130 becomes i and U+0307); and the final-sigma condition with its two sets, read as ICU and CPython read it: walking away from U+03A3, a code point that is Case_Ignorable is skipped even when it is also Cased. The steps are NFKC of the whole string, lower-casing of the whole result, then the maximal runs of token characters. A code point the table does not name (every one unassigned in 17.0) is a starter without mappings and separates tokens. An implementation MAY read the table instead of its runtime's Unicode library, and MUST compute the tokens the table gives for every input; its runtime's own data usually differs (Python 3.11's unicodedata is 14.0) on characters assigned since. spec/unicode/vectors.json gives 3,381 strings with their tokens and the SHA-256 of the tokens of all 1,112,064 one-code-point strings, so an implementation can check itself on every code point. The table is derived from the kit's runtime, Node 20.20.2 with ICU 78.2, which implements exactly 17.0; the kit's tests fail when the committed table differs from the one the runtime gives, when the runtime has another Unicode version, or when the kit's tokenisers and a reader of the table disagree on any code point or on random strings (spec review G-10).",
    why: "The verdict is a rejection (S-1) or an acceptance, so two conforming implementations must compute the same one for every input, including text in scripts assigned recently: U+1E4D0 (Nag Mundari, assigned in Unicode 15.0) is a letter in 17.0 and unassigned in 14.0, so 'alpha \\u{1E4D0} beta gamma delta' leaks 'alpha beta gamma delta' under 14.0 and not under 17.0. Most runtimes lag the newest Unicode version (an implementer working from the documents alone had to generate a 14,184-code-point delta from Node to comply); with the data as a table, compliance is reading JSON in any language, and the vectors check it on every code point. The table is derived from the runtime rather than from the Unicode Character Database files because the runtime's results are what the model and the implementation compute, and the derivation checks every rule it writes against them; that is how ICU's reading of Final_Sigma was found to differ from Unicode's regular expression on the 268 code points that are both Cased and Case_Ignorable (' \\u0345\\u03a3' lower-cases to U+0345 U+03C3, not U+03C2), and CPython's str.lower reads it the same way. JavaScript exposes no combining class, so the derivation observes the order canonical reordering gives, which is all the algorithm uses. No simpler form than the full algorithm is exact: composition crosses token boundaries ('a=\\u0338b' composes U+2260, a separator, out of a mark that is a token character alone), and the final-sigma condition reads across separators ('\\u0391\\u03a3.\\u0392' keeps U+03C3), so the whole string is normalised and lower-cased before it is cut into tokens.",
    paper:
      "Samsara, 'Samskara' and 'Limitations': the validator is n-gram level over tokens; no normalisation or Unicode version is named.",
    alternatives:
      "The runtime's Unicode version, whatever it is (the reviewer's reading: verdicts then differ between Python 3.11 and Node, and between Node builds); requiring a Unicode library at 17.0 without a table (this decision's first form: few languages have one at the newest version, so the implementer had to build the delta); per-code-point results only (each code point's NFKC and lower-case form: not exact, since reordering, composition and the final sigma depend on neighbours); the Unicode Character Database files themselves (exact, but each implementer then writes the derivation this table is, and the files do not say which reading of Final_Sigma the kit uses); an older version such as 15.1 with tables (the kit's own runtime would then need them too); treating every non-ASCII character as a separator (language-independent, but turns most non-English guidance into separators and makes the validator blind to it); refusing guidance with code points unassigned in the pinned version (a new rejection nothing in the papers supports).",
    refines: ["S-1"],
  },
  {
    id: "D-046",
    title: "Native recovery: ripa.task_pause revokes a dead worker's live attempt",
    decision:
      "A new operation `ripa.task_pause { task_id, attempt_nonce }` (OP-6.12) is the kit's native recovery: after the recorded worker has exited, the caller pauses the task by naming its live attempt. Checks: the task is recorded (else I2); the named nonce is the task's live attempt (else I4). It revokes (clears) that attempt, emits `task.paused`, and the nonce stays used: a late reply carrying it is rejected by OP-6.5 with I4, it can never be published again, and a later `ripa.request` publishes a fresh attempt. The pause is not refused while quiesced (OP-0.4). With the attempt revoked the fence (OP-7.1) is no longer refused, so an agent whose worker died mid-request can be migrated. `ripa.task_resume` and `ripa.migration_fence` are unchanged: neither revokes an attempt (spec review G-53).",
    why: "Before this, only a reply cleared a live attempt: a worker killed after publishing its request left an attempt nothing could end, the fence refused forever (OP-7.1) and the agent could never be migrated; and a late reply from the killed worker was accepted if it arrived after recovery and before the next attempt. Naming the attempt makes the revocation attempt-local like the reply check: a recovery decided about worker A that arrives after worker B published its attempt is rejected with I4 instead of revoking B's live work. Keeping resume and fence as they were keeps every existing transcript valid and keeps the revocation an explicit decision, like the operator-confirmed cancel of OP-7.7.",
    paper:
      "RIPA, Section 5.2 (provider contracts and runtime adapters): recovery 'first establishes that the recorded worker has exited and then invokes the native task-pause API with the retained checkpoint'; Section 6.4, fault case F: 'native recovery pauses the same task', a subsequent worker uses a fresh attempt nonce and 'submission of the old nonce produces rejection'; Section 5.2, Muse adapter: 'a response is accepted only when it matches that attempt'; Section 4, phase 1: quiesce may 'allow or cancel bounded in-flight work'; Table 4 (I4): 'correlate reply attempts', 'nonce checks are attempt-local'.",
    alternatives:
      "Make `ripa.task_resume` revoke the task's live attempt (the reviewer's reading of native recovery): the paper's recovery pauses and a later worker resumes, a resume of a task whose worker is alive would throw away its good reply, and resume is refused while quiesced, so it could not serve quiescing. Let the fence cancel every live attempt itself: a fence would silently discard work of a live worker, where the paper's export refuses while a task runs. A pause that names only the task and revokes whatever is live: a late recovery would revoke a newer worker's attempt. Require the current authority token: requests and replies carry none in the kit (attempts, not epochs, correlate replies), and the worker that died may have held the epoch the caller needs to replace.",
    refines: ["I4"],
  },
  {
    id: "D-047",
    title: "Migration report: the memory flag is memory_ancestry_preserved",
    decision:
      "The `MigrationReport` flag formerly named `memory_extended` is `memory_ancestry_preserved`: it is true when resume found the installed memory head and store head equal to the bundle's (OP-7.6), i.e. the ancestry was carried over. The migration itself appends nothing to memory; writing a target marker into memory is the resumed task's own work (e.g. `ripa.task_start` or a merge on the target), which extends memory by the ordinary causes of OP-1.10 (spec review G-54).",
    why: "The old name claimed an extension the kit never performs: the report said memory_extended: true while the memory ancestry after resume is equal to the bundle's. A flag must say what was checked. Modelling a target-marker snapshot at resume would add a memory cause and change every completed migration's memory, for a step the paper attributes to the workflow, not to the protocol.",
    paper:
      "RIPA, Section 2.2 and Section 4 (I2): the target's memory must continue the source's ancestry (⪯ is an auditable continuation, equality allowed). Section 6.3, study B2: 'the explicit workflow driver resumes the original task through Muse, obtains the multiplied subtotal, writes the target marker and completes the task' — the marker is written by the resumed task after activation, and 'extend memory with the target marker' reports that outcome of the runs.",
    alternatives:
      "Model it: resume appends a memory snapshot with a new cause naming the migration target (closer to the study's wording, but the paper puts the write in the workflow driver, and it would change OP-1.10's causes, the snapshot schema and every migrated agent's memory head); keep the name and document that it means 'not reset' (a flag whose name says the opposite of what happened invites exactly the reviewer's misreading).",
    refines: ["I2"],
  },
  {
    id: "D-048",
    title: "The kit is one npm package, samsara-ripa-kit, versioned by semver; its implementation is not in it",
    kit: true,
    decision:
      "The kit is published as the npm package `samsara-ripa-kit`: the `srk` command as compiled JavaScript (`dist/`, built by `npm pack`; no TypeScript compiler and no tsx at run time), a typed library API (`certify`, `replay`, the model's `transition` and `view`, the catalog of invariants, `digestOf`; the whole model and spec as `samsara-ripa-kit/model` and `samsara-ripa-kit/spec`), and the normative data the runner reads (the spec's Markdown, tables, checks, JSON Schemas and vectors, the golden transcripts). It ships no tests, triage, site or certificates. The kit's own implementation (`impl/`) is an npm workspace of the repository, not part of the package: its SQLite binding (better-sqlite3) builds native code on install, and the runner never needs it. Versions follow semver 2.0.0, with these rules: a change that makes an implementation certified before fail or come out inconclusive now, a breaking change of the wire protocol (spec/wire/PROTOCOL.md: a message, field, code or rule an implementation must change for) or of the certificate's schema (a field removed, renamed or retyped; `certificate_version` bumped) is a major version; a new check, stage, invariant witness, golden line or optional certificate field that a conforming implementation passes unchanged is a minor version; a fix of the runner that changes no verdict of a conforming implementation is a patch. Before 1.0.0, per semver, the minor version plays the major's part. A certificate names the kit's version and the spec's digest, so two certificates are comparable only when both agree (D-038).",
    why: "Implementers certify from their own repositories and CI: they need to depend on the runner, pin it, and know from the version number alone whether an upgrade can fail an implementation that passed. Shipping compiled JavaScript makes `srk --help` start in a fraction of the time tsx needs to compile the runner, and leaving the implementation out means installing the runner builds nothing (better-sqlite3 takes minutes to compile where no prebuilt binary can be fetched). The normative files ship because the runner reads the golden transcripts and hashes the spec into every certificate.",
    paper:
      "Neither paper says how a conformance kit is distributed. Both ask for checkable invariants; a certificate is only as useful as the ability to say which rules it was issued under, which the version and the spec digest record.",
    alternatives:
      "Keep the package private and document `git clone` (every user carries the tests, the Stryker triage and a 6.9 MB site, and gets a 4–5 s start); ship TypeScript and tsx (the start stays slow, and tsx becomes a run-time dependency); make better-sqlite3 an optional dependency (npm still tries to build optional dependencies, and fails loudly on a machine without a compiler); ship the implementation too with a WebAssembly SQLite (a second storage engine to verify for durability and forgetting, W-7); version the wire protocol and the package separately (`protocol_version` does exist on the wire, but a user upgrades one package, and what they need to know is whether that upgrade can change a verdict).",
    refines: [],
  },
  {
    id: "D-049",
    title: "Profiles: what each set of families certifies, and what a profile cannot witness is not applicable",
    decision:
      'Any set of families may be declared (W-5.2). An invariant is applicable to a profile when (1) its own family is declared, (2) the families it needs whatever its guards are declared — AD-3 needs samskara, because its statement is about merging and without samskara.merge nothing merges — and (3) at least one operation it guards reaches it with only the declared families: the operation is allowed (its family is declared, or it is the bootstrap advaita.mint, D-034) and the state it acts on can be built: the store operations (samskara.merge, samskara.excise, samskara.replay) act on distillates, which only janma.distil makes, so they need janma; advaita.project_write is refused NOT_FOUND (OP-4.4.c1) unless a janma instance exists, so it needs janma. Every other operation needs only an agent. An invariant of a declared family that fails (2) or (3) is reported not applicable with the families it needs ("needs janma"), never inconclusive; inconclusive stays for what could have been witnessed and was not (D-036). A profile is certifiable when at least one invariant is applicable to it: every non-empty set of families except {samskara}, which certifies nothing. What each certifies (docs/IMPLEMENTING.md lists it per step): janma J-1..J-4; advaita AD-1; ripa I1..I6; janma+samskara adds S-1..S-5; janma+advaita adds AD-1, AD-2, AD-4; janma+samskara+advaita adds AD-3; samskara alongside ripa or advaita without janma adds nothing. The runner sends no operation of an undeclared family (W-5.2) — the golden sessions and the wire catalog included (a command failing the Command schema is MALFORMED whatever its op, W-2.3, so a hostile line may name any op). An implementation may refuse a well-formed command of an undeclared family; the kit\'s implementation started with `--families` does so with UNSUPPORTED, so a runner that breaks W-5.2 fails against it.',
    why: "The vacuity guard (an applicable invariant with no witness is inconclusive) is right for what a campaign could have exercised and did not, and wrong for what no behaviour of the profile can reach: an advaita-only implementation came out inconclusive on AD-2..AD-4 for ever, so no partial implementation could reach exit 0 and the staged path from an empty implementation to a full one had no passing step. Deriving applicability from the guards (which are derived from the check clauses, G-3) and from what each operation acts on keeps it from drifting from OPERATIONS.md; the one hand-written exception, AD-3, is the invariant whose statement is about an operation of another family.",
    paper:
      "Samsara defines Janma, Samskara and Advaita as layers of one lifecycle (The Samsara Layer): a disposition persists only through a distillation at the end of a life, so the store's algebra presupposes lives. RIPA (Section 4) states its invariants over an agent's substrate without reference to Samsara's lifecycle. Neither paper speaks of partial implementations.",
    alternatives:
      "Certify only the full profile (simple, but a newcomer can pass nothing until everything is built); fixed named profiles such as 'janma', 'lifecycle', 'full' (fewer cases to explain, but the wire already lets any set be declared, and a fixed list would need a rule for every other set anyway); a store-algebra profile for researchers who implement only merge, replay and excise over distillates the runner supplies (it would certify AD-3, S-4 and S-5 without a lifecycle, but needs a new operation that hands a store a distillate no life made, which bypasses S-1, S-2 and J-4's custody and changes the wire protocol: left for a later decision); keep such invariants inconclusive and let users list them as expected failures (the baseline is for known bugs, not for what a profile cannot do).",
    refines: ["J-4", "S-1", "S-3", "S-4", "S-5", "AD-2", "AD-3", "AD-4"],
  },
  {
    id: "D-050",
    title: "Wire logs: recording traffic the runner did not drive, and checking it against the model",
    decision:
      "A wire log (spec/LOG.md) is JSON lines: a header naming the format version (1), the recorder and the implementation, then one entry per protocol line the implementation read (request) or wrote (reply), with a sequence number that rises by one in a complete log and a monotonic timestamp in microseconds, and at most one exit entry. A line is kept as its JSON value, or, when it is not one JSON value, as its text cut at 65,536 characters with its length. `srk record --impl CMD --log FILE` writes one as a transparent proxy (bytes pass unchanged both ways; it exits as the implementation did; it never overwrites a log). `srk check-log FILE` applies the requests to the reference model in the order received, pairs each reply with its request by id (replies come in order, W-1.6), compares each command reply and world view it holds with the model's exactly as a certification does (W-9, D-032) and attributes a disagreement by D-035. What the log lacks is not invented: a request without its reply moves the model and compares nothing; an agent the log never mints is a gap (reported, its commands and later world views not compared); wire-level replies, hello, reset, shutdown and queries other than world are counted, not compared; after a violation the rest of the session up to a reset is not judged. The model starts empty (a process on an empty data directory, or the session after a reset). Exit 0 when at least one reply was compared and all agree, 1 on a violation, 2 when nothing was compared, 64 for a log that breaks L-1, naming the line. Each of the first eight violations is written as a portable trace of stage log (the session's commands and world queries up to the failing request, with the model's replies), read from the log a second time so the check itself keeps no copy of the log; srk replay runs it against any implementation.",
    why: "A certification judges an implementation only while the runner drives it; a team also has traffic the runner never generated (its integration tests, staging, production). Checking what a real system did against the model finds what sampling did not try, and a log checker that invents the missing parts (a mint it assumes, a reply it guesses) would report consistency it never saw, so it counts what it could not compare and says why. Pairing by id rather than by position keeps a log with replies left out checkable; one pass front to back with the model's world as the only state keeps memory bounded by the model, not the log.",
    paper:
      "Neither paper describes testing or logs; RIPA (Section 4) states its continuity invariants over what an agent's host observes, which is what a log records.",
    alternatives:
      "Log only commands and replies, not the wire envelope (a user's own log rarely has more, but hello carries the profile and reset starts a session, both needed to check); pair replies by position (W-1.6 allows it, but one reply left out would shift every later pairing); search for unlogged commands between logged ones (needed for logs the implementation writes itself; decided apart, with its bound and alphabet, by D-066); compare every query, not only world (the other queries are projections of the world view; version 1 compares the world view, which contains them).",
    refines: ["AD-3", "S-4", "I4"],
  },
  {
    id: "D-051",
    title: "At resume the old source execution does not become a replica",
    decision:
      "When ripa.migration_resume (OP-7.6) promotes the target, the migration's source execution leaves the agent altogether: it is no longer the bound execution, it holds no authority (the new epoch's holder is the target) and it is not added to the replica list, which keeps exactly the replicas it had (less a promoted target, G-36). The source's fence stays. A source that should go on serving is enlisted again by an explicit ripa.replicate naming its execution, which is then accepted like any execution the agent does not list (OP-6.10), as a replica holding no authority.",
    why: "Resume replaces the execution binding; nothing in a migration declares that the old execution should keep serving, and a replica is a declared deployment of the agent (OP-6.10), so turning the source into one would be a side effect no command asked for, visible in every later view and making a later ripa.replicate of the same execution a DUPLICATE_ID. Both the reference model and the kit's implementation already dropped the source; OP-7.6 did not say so, and an independent implementer read it both ways.",
    paper:
      "RIPA ('Runtime-Independent Persistent Agents'), Section 4 (Authorized Migration Protocol): after target activation 'the source must remain fenced even if it reconnects', and the migration is 'a single governed promotion point'; Section 7.2 (Copying memory does not copy authority): 'A copied checkpoint may instead serve as a replica or descendant under its declared authority policy', i.e. becoming a replica is declared, not implied by migration.",
    alternatives:
      "The source becomes a replica at resume (keeps the old deployment reachable, but it is an undeclared replica and the paper keeps the source fenced); the source stays listed as a retired execution (a new list no view has, for no check that reads it).",
    refines: ["I4"],
  },
  {
    id: "D-052",
    title:
      "Consent levels read as the consent protocol's: low approves, medium records, high waits for a human who is not there",
    decision:
      "The kit keeps D-011's rule (a disposition persists iff the resolved sensitivity is at or below the grant's persist_ceiling, which is low or medium) and states how it maps onto the consent protocol's meaning of a level. Low: approved automatically, as the protocol says. Medium: the protocol records and does not block; the kit persists it when persist_ceiling is medium, and the distillate itself is the record (the disposition carries its category, the obligation its distillate digest, the lineage the batch). A persist_ceiling of low is the principal declaring a stricter tolerance of its own, which the protocol's effective level (the strictest of the principal's, the callee's and a regulatory floor) allows. High: the protocol escalates to a human decision (HUMAN_REQUIRED); no human answers inside a distillation, so an escalation without an answer fails closed and the disposition does not persist (S-1). An implementer on the consent protocol's library gets the kit's behaviour by setting persist_ceiling to medium and treating an unanswered HUMAN_REQUIRED as a refusal.",
    why: "A distillation is one atomic command at the end of a life; holding a lesson open for a human's later answer would make a distillate's content depend on a decision taken after its life, which S-4's replay and S-5's excision cannot reproduce from the lineage. Failing closed on high keeps the protocol's 'must escalate' without inventing an answer. The ceiling is kept because it is the only way a principal can refuse medium for persistence while accepting it elsewhere, which the protocol's strictest-level composition permits.",
    paper:
      "Samsara, 'Samskara: Dispositional Continuity': persistence requires consent recorded in the consent protocol's usage grid. The consent protocol's grid extension (consent.categories.proto, CategorySensitivity): LOW may be auto-approved, MEDIUM is recorded but not blocked, HIGH must escalate to HUMAN_REQUIRED; the extension calls itself not yet normative.",
    alternatives:
      "Adopt the levels literally: medium always persists and high is held pending a new 'consent answered' operation (a principal's later answer changes what a past life persisted, so replay depends on an event outside the lineage, and the wire grows an operation for a human channel the kit cannot drive); drop persist_ceiling and persist low and medium always (removes the principal's stricter choice the protocol allows); persist high too and only log it (breaks the protocol's MUST escalate).",
    refines: ["S-1"],
  },
  {
    id: "D-053",
    title:
      "The signal is the principal's: the manifest names the principal's satisfaction model, and the signal must be computed under it",
    decision:
      "The distillation policy of a manifest declares `satisfaction_model`: the version of the principal's satisfaction model (a text of at most 128 characters), or null for the satisfaction protocol's reference formula. A janma.distil whose signal.model_version is not exactly the manifest's satisfaction_model is rejected with S-2 at OP-2.7.c6, before the weights are checked. The manifest is the principal's declaration, fixed at conception and covered by the manifest digest that signs every act, so the distiller cannot pick the model its life is judged by. A disposition's category stays the distiller's statement about the lesson's content; it is audited, not chosen by the principal: the consulted cells are a function of the category and the manifest's grant, both in the lineage, so anyone can recompute them.",
    why: "S-2's clause 'the distiller cannot substitute its own judgement' was not checkable while model_version was any string: a distiller could stamp a signal with any model, including one of its own. Binding the signal to a model the principal declared before the life began makes the substitution observable on the wire. The category has no principal-side source in the protocols: the consent protocol has the policy publisher assign it and records the consulted cell in an adherence event; the kit's lineage already carries both inputs of that record.",
    paper:
      "Samsara, 'Samskara': valence is computed under the principal's satisfaction model where one exists, so the distiller cannot substitute its own judgement; S-2. The satisfaction protocol: the satisfaction model is authored and controlled by the principal (ADR 001, principal-declared over service-declared); a record's psm_version null means the reference formula. The consent protocol: the consulted cell is recorded in the adherence event.",
    alternatives:
      "Keep model_version unchecked (S-2's clause stays prose); a list of accepted model versions in the manifest (lets a principal rotate models mid-life, but a life is short and one model per life is what the protocol's record carries); sign the signal with a principal key (the strongest binding, but it needs key material the kit does not model, and the manifest digest already signs every act); a principal-declared map from disposition keys to categories (the protocols have no such object, and the distiller writes the keys).",
    refines: ["S-2"],
  },
  {
    id: "D-054",
    title:
      "Applied with the acknowledgement lost: the store is the receiver, so applying and discharging are one write",
    decision:
      "The kit keeps the sender and the receiver of a distillation obligation as one atomic party: the store that merges a distillate discharges its obligation `applied` in the same write (OP-4.1, D-027), so the custody protocol's state 'applied but the acknowledgement was lost, then escalated' cannot arise, and the AD-2 predicate still fails a store holding a distillate that no applied obligation delivered. An implementation whose store is a remote receiver of the custody protocol must make the merge and the receiver's ledger one transaction (which that protocol's receiver already does) and take the outcome from the receiver's ledger: a redelivery of an applied obligation is re-acknowledged applied (the protocol's idempotency) and the sender records applied, not escalated. The kit's custody.attempt acknowledgements are only declined, deferred and lost (D-018): a lost acknowledgement of an application the store made cannot be scripted, because the store's merge is what 'applied' means.",
    why: "The custody protocol allows apply-then-escalate as over-protection, not split brain: the fail-safe runs although the receiver applied. For Samsara that would quarantine the pin of a life whose corrective lesson is in the store, refusing descent for no reason, and the world would say escalated for a distillate the lineage shows merged, so replay and the obligation record would disagree. One party owning both facts removes the disagreement instead of tolerating it.",
    paper:
      "Samsara, 'Janma': a corrective distillate travels under custody, its outcome always reported as applied, declined or escalated. The custody protocol's TLA+ specification (Abhyasa.tla, ApplyButAckLost then Escalate) and its design notes allow escalation after an application whose acknowledgement was lost.",
    alternatives:
      "Model a separate receiver with its own ledger and allow apply-then-escalate (faithful to the protocol's channel model, but the kit's world would hold a merged distillate with an escalated obligation and a quarantined pin, and AD-2's predicate would have to accept deliveries nobody recorded); let a later merge reopen an escalated obligation as applied (the protocol forbids reopening a terminal state).",
    refines: ["J-4", "AD-2"],
  },
  {
    id: "D-055",
    title:
      "The fail-safe in the custody protocol's terms: FAIL_CLOSED on the pin the life was born from, held by the store",
    decision:
      "A corrective obligation's fail-safe, quarantining its born_from version (D-019), is the custody protocol's safe(O) with effect FAIL_CLOSED on one governed key, the store version, acting on state the custodian owns: the agent's store holds the quarantined set, and applying the fail-safe needs no cooperation from the receiver or the life. It applies on escalation and, following the custody protocol's SPEC.md, on declined (the decline discharges delivery, not protection). Where the protocol's own sources disagree — its TLA+ Decline action leaves `protected` false while SPEC.md says the custodian must apply safe(O) or surface the decline — the kit follows SPEC.md's default, applying safe(O), and does not model 'surface for an explicit principal decision' (a principal who wants the pin back lifts the quarantine by a new store version, not by reopening the obligation). DOWN_WEIGHT, the protocol's other effect, is not used: the merge's confidence-weighted mean already weighs a corrective lesson by its principal's confidence once it arrives.",
    why: "The mapping tells an implementer on the custody protocol's library what to register as safe(O) and who executes it; without it the quarantine could be placed on the receiver side, where an unreachable receiver would leave the pin live, which is exactly what the fail-safe is for.",
    paper:
      "Samsara, 'Reference Implementation': custody retry, the quarantine fail-safe, and refusal to descend from a quarantined pin. The custody protocol: AC-1 (admissible iff a fail-safe polarity is declared), AB-4 (on the deadline execute safe(O) and escalate), the fail-safe acts only on principal-side state without remote cooperation, effects FAIL_CLOSED and DOWN_WEIGHT; SPEC.md on declined; Abhyasa.tla Decline.",
    alternatives:
      "Follow the TLA+ Decline (no fail-safe on a decline: a declined corrective lesson would leave the rejected life's pin descendible, losing the lesson silently); surface the decline to the principal instead of quarantining (needs a principal channel the kit does not model); DOWN_WEIGHT the born_from version's dispositions (changes store content without a merge, so replay could not reproduce it).",
    refines: ["J-4", "J-1"],
  },
  {
    id: "D-056",
    title: "Consent is the grant frozen at conception; revocation and regulatory floors are composed before it",
    decision:
      "A life's consent is the consent_scope of its manifest, fixed at conception and covered by the manifest digest (D-011). A revocation after conception does not change what that life may persist; it applies to lives conceived after it, and content already persisted is removed by excision (S-5, OP-4.2), which is the kit's deletion path. The grant a manifest carries is the effective grid: whoever issues the manifest composes the principal's grid with the callee's and any regulatory floor (the strictest level per cell) before conception; the kit reads one grid and never relaxes it.",
    why: "A distillation judged against a grant that changed during the life would make S-1's verdict depend on when a revocation arrived relative to the distil command, which replay (S-4) cannot reconstruct from the lineage; freezing it keeps every S-1 verdict a function of the manifest. Composing floors before conception keeps one grid per life, as the paper's 'consent recorded in the usage grid' reads, and the consent protocol's strictest-level rule is a pure function the issuer can apply.",
    paper:
      "Samsara, 'Samskara': persistence requires consent recorded in the consent protocol's usage grid; 'Janma': nothing is acquired after conception. The consent protocol: a policy bump makes a consent stale, revocations travel under custody and fail closed; the regulatory-context extension: active jurisdiction floors must not be relaxed; the effective level is the strictest of principal, callee and regulatory floor.",
    alternatives:
      "Re-read a live consent registry at distillation (a second source of truth outside the world, and replay-dependent); carry revocations as custody obligations into the life (the life cannot be given anything after conception, J-1, J-2); model the regulatory floor as a second grid in the manifest (the same composition, moved into every implementation).",
    refines: ["S-1"],
  },
  {
    id: "D-057",
    title: "A life with no feedback ends: it distils an empty distillate with a zero-confidence signal",
    decision:
      "A withdrawn life whose principal gave no feedback is distilled with a signal of confidence 0 and valence 0 (the satisfaction protocol's SR-1: confidence is 0 when there are no signal components) and no dispositions. OP-2.7.c6 accepts a confidence of 0 only in that form: confidence 0 with a non-zero valence, or with any disposition, is S-2. Such a distillate is reinforcing (valence 0, D-013), travels best-effort, and ends like any other: merged (applied; its batch adds no disposition), or best_effort by attempt or by custody.expire at its deadline; the instance then dissolves (OP-2.8). Every withdrawn instance can therefore reach dissolved, whatever its feedback. The paper's rule against a zero-confidence signal stays for everything it protects: no weight is ever backed by a zero-confidence signal, and the per-key confidence-weighted mean (D-002) never sees a zero confidence.",
    why: "Before this decision a life without admissible feedback could not be distilled (S-2 refused confidence 0), and without a discharged obligation it could never dissolve (OP-2.8): the instance was stuck withdrawn for ever, a liveness gap of the same kind as the uncancellable attempt of review G-53. An empty distillate loses nothing the principal declared, since the principal declared nothing, keeps J-4's exactly one obligation per life, and records in the lineage that the life happened and taught nothing.",
    paper:
      "Samsara, 'Samskara': a SatisfactionSignal taken from the principal's own welfare feedback; a zero-confidence signal is inadmissible (read here as: it cannot back a disposition); 'Janma': J-4, shutdown emits exactly one distillation obligation. The satisfaction protocol, SR-1: confidence must be 0 when there are no signal components.",
    alternatives:
      "A janma.release operation that dissolves a withdrawn life without a distillate (breaks J-4's exactly one obligation and S-5's one life, one distillate); dissolve automatically after a grace window (a second clock rule, and the life leaves no record); a null signal in the schema (a second shape for the same fact SR-1 already expresses as confidence 0); let a zero-confidence signal carry dispositions with no weight in the mean (their guidance would persist with a weight nobody judged, against S-2).",
    refines: ["J-4", "S-2", "J-3"],
  },
  {
    id: "D-058",
    title: "Persisting a disposition is both the storage and the training use of its category",
    decision:
      "D-011 read only the training dimension. A disposition is kept beyond its life (storage: persisted beyond the current session) and shapes every later life born from the store (training), so persisting it uses both dimensions: the resolved sensitivity is the stricter of (category, storage) and (category, training), each resolved by the exact cell, then the category's default row, then low, and the disposition may persist iff that stricter level is at or below persist_ceiling (D-052). A grant that allows training and refuses storage for a category refuses persistence, and so does the converse.",
    why: "The consent protocol names both uses and notes that principals frequently accept storage but refuse training; the converse exists too. An implementer on its library checks the storage cell before keeping anything beyond a session, so reading training alone would certify an implementation that persists what its principal refused to have stored.",
    paper:
      "Samsara, 'Samskara': persistence requires consent recorded in the consent protocol's usage grid (the paper names no dimension). The consent protocol: STORAGE is persistence beyond the current session; TRAINING is use to improve models; principals frequently accept storage but refuse training.",
    alternatives:
      "Training only (D-011's earlier reading: misses a refused storage cell); storage only (misses the refusal the protocol says is common); a per-grant choice of dimensions (one more field whose every value but 'both' certifies a consent breach).",
    refines: ["S-1"],
  },
  {
    id: "D-059",
    title: "Retry sizing: no backoff parameters, so the custody protocol's profile check has nothing to reject",
    decision:
      "The kit keeps D-018: a distillation policy is deadline_ticks and max_retries; attempts are scripted by the caller with their ticks; both bounds are enforced on every attempt (at most max_retries + 1, each strictly before the deadline, D-060), and custody.expire escalates a corrective obligation at the deadline. There is no backoff base or cap, so the custody protocol's rule rejecting a profile whose capped backoff cannot span its deadline has no input here. An implementer whose custody library validates profiles chooses its backoff so that max_retries + 1 attempts span deadline_ticks; a profile that cannot still ends in escalation and the fail-safe, never in silent loss.",
    why: "The sizing rule exists so that the deadline, not an early run-out of retries, ends a transfer; in the kit an early run-out is already safe (escalated, fail-safe applied), and time is the caller's ticks, so backoff is scheduling the kit cannot observe on the wire. Adding backoff fields would add checks no reply could witness.",
    paper:
      "Samsara, 'Reference Implementation': custody retry. The custody protocol: AB-2, retries under bounded exponential backoff min(cap, base·2^(n-1)); its A2A binding rejects a profile whose retries cannot span the deadline (KindProfile._retries_span_deadline).",
    alternatives:
      "Add backoff_base and backoff_cap to the policy and reject an incoherent profile at conception (checks a schedule the kit never observes); require attempts at least the backoff apart in ticks (turns the sender's scheduling into a protocol rule the paper does not state).",
    refines: ["J-4"],
  },
  {
    id: "D-060",
    title: "The custody deadline is strict: every delivery action happens before it",
    decision:
      "A custody.attempt is accepted only at tick < deadline_tick (OP-3.1.c3), and samskara.merge refuses a pending obligation at tick ≥ deadline_tick (OP-4.1.c4), both with J-4. At the deadline tick itself only custody.expire acts (OP-3.2.c3, tick ≥ deadline_tick, unchanged), discharging a corrective obligation escalated with its fail-safe and a reinforcing one best_effort. Before this decision an attempt and a merge were allowed at the deadline tick, one tick later than the custody protocol allows.",
    why: "The custody protocol's every action requires clock < Deadline and its receiver declines at now ≥ expiry; an implementer on its library refuses delivery at the deadline tick, and the kit certified only the other reading. With the strict bound the deadline tick belongs to expiry alone, so no tick admits both a delivery and an escalation of the same obligation.",
    paper:
      "Samsara, 'Janma': a corrective distillate travels under custody. The custody protocol's TLA+ specification: Apply, Decline, LoseAndRetry and ApplyButAckLost all require clock[o] < Deadline, Escalate clock[o] >= Deadline; its SPEC.md: a receiver must not apply an obligation whose deadline has passed.",
    alternatives:
      "Keep the inclusive bound (one tick where delivery and escalation are both possible, and a certified implementation that the custody library would refuse); make expire strict instead (tick > deadline, leaving the deadline tick to delivery: the protocol says the reverse).",
    refines: ["J-4"],
  },
  {
    id: "D-061",
    title: "Reinforcing obligations report what happened to them, not only best_effort",
    decision:
      "The kit keeps OP-3.1's outcomes for a reinforcing obligation: declined when the receiver declined, best_effort when its one delivery was deferred or lost or its deadline passed, applied when a merge took it. The custody protocol's best_effort is the channel class (no custody, no retry, no fail-safe), which the kit carries as kind = reinforcing and fail_safe = null (D-063); the outcome field records the observed end. An implementer whose custody library reports best_effort for every non-custodied message maps it: the library's best_effort plus the store's merge is applied, plus the receiver's decline is declined, otherwise best_effort.",
    why: "The world view of a store must say whether a lesson reached it: applied is what the AD-2 predicate and the lineage check against, and collapsing a merged reinforcing distillate to best_effort would make a merged lesson and a lost one look the same. The custody protocol's own BenignSideBestEffort property only constrains its channel machine, which the kit's kind field already expresses.",
    paper:
      "Samsara, 'Janma': a reinforcing distillate travels best-effort; outcomes are reported as applied, declined or escalated rather than lost silently. The custody protocol: non-custodied messages get one attempt and the terminal best_effort (machine.py transfer; TLA+ BenignSideBestEffort).",
    alternatives:
      "Report best_effort for every reinforcing end (the protocol's label; loses whether the lesson was merged, which the store's view must show); a separate delivery field beside the outcome (two fields for one fact).",
    refines: ["J-4", "AD-2"],
  },
  {
    id: "D-062",
    title:
      "Eventual discharge is a property of the caller's clock: drive time past a deadline and every obligation ends",
    decision:
      "Time in the kit is the tick the caller supplies, so the custody protocol's DeliverOrReportLive (under weak fairness, every obligation eventually reaches a terminal state) is stated as what the caller can always do: from every reachable world, custody.expire at any tick ≥ deadline_tick discharges every pending obligation, and every withdrawn instance can be distilled (with an empty zero-confidence distillate when there is no feedback, D-057), its obligation discharged, and dissolved (OP-2.8). The property suite checks it on every generated history (its liveness property): after the history, the driver distils each withdrawn life that has no obligation, expires each pending obligation at the largest deadline, dissolves each withdrawn instance, and every obligation must be discharged and every instance that was withdrawn must be dissolved; a mutant that strands a life fails it.",
    why: "A safety-only certificate would pass an implementation in which an obligation or a life can never end; the kit cannot assume fairness of a clock it does not own, but it can check that the caller always has a way out, which is the liveness an implementer must provide.",
    paper:
      "Samsara, 'Janma': J-3 bounded lifetime; J-4 exactly one obligation whose outcome is always reported. The custody protocol's TLA+ specification: DeliverOrReport (safety) and DeliverOrReportLive (under weak fairness of the actions).",
    alternatives:
      "A temporal property under an assumed fair scheduler (the kit's model has no scheduler: every step is a caller's command); an automatic expiry inside the implementation (implementations would need a clock of their own, breaking deterministic replay over the wire).",
    refines: ["J-3", "J-4"],
  },
  {
    id: "D-063",
    title: "Only a corrective obligation declares a fail-safe, and 'admissible' has the custody protocol's meaning",
    decision:
      "An obligation's fail_safe is { action: quarantine, store_version: born_from } when it is corrective and null when it is reinforcing (the member is present either way; the DistillationObligation schema requires the non-null form exactly for corrective ones, one schema shape per kind). Corrective is therefore exactly the custody protocol's admissible: an obligation that declares its fail-safe and travels under custody. The kit's documents use 'admissible' only in that sense; a signal or weight the distil checks accept is called accepted or valid, never admissible. D-042's remark that the consent protocol 'says nothing of duplicates' is corrected there: its validator rejects duplicate cells.",
    why: "Every reinforcing obligation used to carry a fail-safe that nothing ever applied, which read as if reinforcing lessons were protected; and 'admissible' meant both 'declares a fail-safe' (custody) and 'passes S-2' (the kit's signal), so a zero-confidence signal was 'inadmissible' in the second sense while the custody protocol calls reinforcing obligations inadmissible in the first.",
    paper:
      "The custody protocol: AC-1, an obligation is admissible iff it declares a fail-safe polarity; inadmissible obligations travel best-effort. Samsara, 'Janma': a reinforcing distillate travels best-effort.",
    alternatives:
      "Keep the dormant fail-safe on reinforcing obligations (one shape for all, but a field that claims a protection never given); drop the member for reinforcing obligations (a world view whose shape depends on kind; null keeps one shape).",
    refines: ["J-4"],
  },
  {
    id: "D-064",
    title: "Conformance: shrinking over the wire may use at most 20 % of the time budget",
    kit: true,
    decision:
      'All the shrinks of one certification together may use at most 20 % (SHRINK_SHARE = 0.2) of its time budget (--time-budget), summed over every counterexample shrunk over the wire in the run; a shrink\'s time runs from the first failure of its replayed run to its end. When the share is spent the shrink under way stops and keeps the smallest failing case found so far, and a later failure is recorded as found (replayed once, not shrunk). A counterexample whose shrink stopped early, at the shrink budget or at the end of the time budget, is marked: its portable trace\'s shrink has interrupted true and a reason ("shrink budget (20% of the time budget) reached" or "the time budget ended"), its finding\'s summary, which the certificate and the printed summary show, says "not fully shrunk", and the certificate\'s counterexample entry carries shrunk: false with the reason. The bound is the runner\'s: it never drops a violation, only leaves its counterexample longer, and the time it saves goes to the runs and stages after it.',
    why: "Shrinking over the wire is a reset and a replay per attempt, and a long failing run can take most of the budget to shrink: the later runs and stages (algebra, crash, forgetting) were cut short and their invariants came out inconclusive because of one violation elsewhere. A fixed share leaves at least 80 % of the budget to finding and deciding, whatever fails. A counterexample that is not minimal is still a valid, replayable counterexample (srk replay reproduces it), so stopping early loses readability, never soundness, and the certificate says so rather than presenting it as minimal.",
    paper: "Neither paper describes testing; the bound is about how the kit spends its time, not about the protocols.",
    alternatives:
      "No bound (one violation can starve the rest of the certification, the problem this decides); a limit on the steps of each shrink (steps over the wire differ in cost by orders of magnitude between implementations, and a per-shrink limit still grows with the number of failures); a share of the time remaining when the shrink starts (a failure found late would get almost nothing, one found early almost everything, and the total would not be bounded by one number a user can reason about).",
    refines: [],
  },
  {
    id: "D-065",
    title:
      "From the satisfaction protocol's floats to millionths: the shortest decimal, rounded half to even; a positive confidence stays positive",
    decision:
      "A satisfaction record's valence and confidence, floats in the satisfaction protocol, become integer millionths (D-001) from the shortest decimal that reads back as the same binary64 value (what JSON writers, Python's repr and JavaScript's Number.prototype.toString print), rounded half to even at the sixth decimal place: 0.9 is 900000, -0.35 is -350000, 0.0000125 is 12 and 0.0000135 is 14. A confidence that is positive in the record but rounds to 0 becomes 1 (one millionth), so a life with feedback never passes for one without (D-057); confidence 0 comes only from a record without signal components (the protocol's SR-1). The record's id and components are not carried by the signal, whose schema is strict (S-1, OP-2.7.c4); a distillate links its lessons to their evidence through each disposition's evidence_digest, which may be the digest of the satisfaction record.",
    why: "Two implementers converting the same record must produce the same distillate digest (AD-3, S-4): multiplying the float by a million and truncating gives 1008 for 0.001009 in most languages, rounding gives 1009, and the exact binary value needs arbitrary-precision arithmetic. The shortest decimal is what a JSON record carries and what every language's standard formatting prints, so every implementer starts from the same digits; half to even is the rounding the kit already uses for the merge (D-002). Keeping a positive confidence positive keeps SR-1's distinction between 'no feedback' and 'little confidence' on the wire.",
    paper:
      "Samsara, 'Samskara': a SatisfactionSignal with valence in [-1,1] taken from the principal's welfare feedback. The satisfaction protocol: a record's valence and confidence are floats, SR-1 makes confidence 0 when there are no signal components, and a record has an id, components and quality scores.",
    alternatives:
      "Round the exact binary value of the double (exact, but every implementer needs the double's full decimal expansion); truncate (biased, and a small positive confidence becomes 0, turning a judged life into one without feedback); carry floats (rejected by D-001 for digests); add the record id to the signal (a new member of a strict schema, where evidence_digest already links evidence per disposition).",
    refines: ["S-2", "AD-3", "S-4"],
  },
  {
    id: "D-066",
    title: "Wire logs: searching for commands the log left out, breadth-first, at seq gaps only, within a state budget",
    kit: true,
    decision:
      "srk check-log --unlogged K --alphabet FILE [--search-budget N] (spec/LOG.md L-2.4; K = 0 by default, which is the check of D-050 unchanged) explains a disagreement by at most K commands the log does not hold, drawn from FILE, a JSON array of wire commands that may omit tick (a bad one is an input error naming the file and its index, exit 64). Where: only at a seq gap, just before the first logged request after it; a position without a gap holds none. The candidate gaps are those of the current session at or after the gap of its latest explanation, among its last 1,000 judged requests; a session with an agent gap or after a violation is not searched. When: a compared command reply or world view disagrees with the model, or a command names an agent the model lacks and the implementation did not answer NOT_FOUND. Ticks: a command with a tick keeps it; one without is tried at the model's world tick at that point of the search and at the tick of the first logged command after the gap. An explanation is a sequence of at most K alphabet commands inserted at one gap, each accepted by the model, after which the model answers every compared reply and world view from the gap up to and including the disagreeing one exactly as the check compares them (W-9, D-032). Breadth-first: fewer commands first, then the gap nearest the disagreement, then alphabet and tick order, so the explanation reported is a shortest one. States (model worlds reached by inserting commands) are deduplicated per gap by the world's canonical encoding; one search visits at most N states (default 100,000) and then gives up, which decides nothing: the disagreement is reported as a violation, marked gave-up, as without the search. With an explanation the check goes on from its run; earlier gaps stop being candidates; a later search at the same gap replaces that gap's explanation, so a gap holds at most K. The result gains a search member (searches, states visited, explained, unexplained, gave up, maximum depth, and each explanation: the gap's line, the line it explains, the inserted commands with their ticks) only when K ≥ 1, and log_check_version stays 1.",
    why: "A log the implementation writes itself, or one sampled from busy traffic, leaves commands out, and the first later reply that depends on one is a violation the implementation never committed (L-3.2); the search lets such a log be checked without inventing anything the model does not confirm, because an explanation is a model run in which every logged reply agrees, so a reply no state reachable by the alphabet produces (a mutant's) stays a violation. Seq gaps only: L-1.2 makes a gap the log's own statement that entries are missing, and allowing insertions anywhere would let K commands explain away a real disagreement in a log that claims to be complete, which is what the checker exists to find. Breadth-first gives the shortest explanation, the one that assumes least. The two ticks are the bounds an unlogged command could carry without a regression before the next logged command (OP-0.3): the earliest the model accepts, and the next logged command's. Deduplicating on the full encoded world, not the view, never merges states the model could later tell apart. A budget keeps the search's cost predictable (the alphabet to the power K otherwise); running out is reported, not hidden, and never turns a violation into consistency. The window bounds the checker's memory, which D-050 keeps to the model's state.",
    paper:
      "Neither paper describes testing or logs. RIPA (Section 4) states its continuity invariants over what an agent's host observes; a host's log that misses some observations is still evidence about the rest, which is what the search lets the kit use.",
    alternatives:
      "Insert anywhere, not only at gaps (finds more explanations in logs that number their entries without gaps, but a log claiming completeness could then explain any disagreement within K); several gaps per explanation (closer to a log with many small gaps, but the search space grows with the product of the gaps' choices; one gap per explanation, and one explanation per disagreement, keeps it linear in the gaps); depth-first or best-first (faster to some explanation, but not the shortest, and the shortest assumes least); every tick from the world's to the next logged one (complete, but a range of ticks multiplies the states for a difference the events show only when the tick is recorded, and the two bounds are what a log that left a command out most plausibly implies); dedupe on the world view (cheaper, but internal state the view hides, such as a held obligation, could merge states that diverge later); no budget (a large alphabet with K of 3 or more runs for hours on one disagreement); report an unexplained disagreement as inconclusive (it would let a mutant's log pass as undecided).",
    refines: [],
  },
  {
    id: "D-067",
    title:
      "Adapters: an implementation's own event log as a wire log, with the bundled implementation's as the example",
    kit: true,
    decision:
      "An adapter (spec/LOG.md L-3) turns an implementation's own log into an L-1 wire log that srk check-log checks unchanged: a header whose recorder names the adapter, then for every request the log says was handled, in order, a request entry with the wire request received and a reply entry with the reply sent, seq rising by one, t_us from the log's own clock and never decreasing. Each reply holds at least its normative part (ok and events, or code, invariant and definite, W-9), which is all check-log compares; what the log does not keep is left out, never guessed; an unreadable line is an error naming the file and the line; an existing log is never overwritten. The kit ships one: the bundled implementation started with SRK_IMPL_EVENT_LOG=FILE appends, per command the engine handled and per reset, one line in its own shape ({at_ms, kind: command.accepted | command.rejected | store.reset, request_id, op, command, events | error {code, invariant, definite, message}}), after the commit and before the reply, and `srk adapt-log impl-events FILE --out LOG` maps event line k to log lines 2k and 2k + 1. Queries, hello, shutdown and wire-level refusals are not logged, so the adapted log has no profile (every family is judged) and compares command replies only. FILE must lie outside the data directory (the process refuses to start, exit 2): the log keeps every command and its events verbatim, so it keeps what the protocol forgets (W-7.2); it is for testing and checking, and a production system that keeps such a log must treat it as personal content.",
    why: "Teams already have logs in their own shapes, and asking them to route traffic through srk record is often impossible after the fact (production) or unwelcome (one more process on the path); an adapter reuses the log they have, and check-log stays the one checker. The example has to be a real implementation's log to show what an adapter loses: a log of state changes holds no hello and no reads, so the adapted log cannot compare world views, which the specification says instead of hiding. Writing the line after the commit means a line never stands for a command that did not happen; before the reply means a client that saw a reply finds its line in the log; the window between the two (where the crash hook's after_commit point kills) loses one line, as it loses the reply. Outside the data directory, because the forgetting stage byte-scans every file there and this log, by design, keeps the content excision and distillation delete.",
    paper:
      "Neither paper describes testing or logs. Samsara's forgetting (a distilled life's trace and an excised distillate's content are gone from the system, W-7.2, S-5) is why an event log that keeps them verbatim must be kept apart from the data the protocol governs and treated as personal content.",
    alternatives:
      "Have the implementation write the kit's log format directly (no adapter to write, but it shows nothing to an implementer whose log already exists, which is what the issue asks for); log queries and hello too (world views could then be compared, but an implementation's own log rarely holds reads, and the example should show what is lost); write the line after the reply (a client could see a reply whose line is not yet written, and a crash between them loses an answered command's line); write it in the commit's transaction (no line lost at a crash, but the log would be part of the durable state under the data directory and would have to forget like it); a command-line flag instead of an environment variable (a runner with a fixed command line would need changing; the variable reaches the process through any command line); read event lines leniently, skipping what is unreadable (a skipped command parts the model from the implementation, and a checker that drops what it cannot read reports consistency it never saw); keep a rejection's path in the event log (it is not compared, W-9, so the example keeps the log smaller and shows a field left out rather than invented).",
    refines: [],
  },
  {
    id: "D-068",
    title:
      "Digests: a one-pass canonical encoder for the JSON subset, checked against canonicalize; native SHA-256 where Node provides it",
    kit: true,
    decision:
      "The spec's digest functions (canonicalJson, digestOf and the rest) write canonical text with the kit's own encoder instead of a subset check followed by the 'canonicalize' package, and hash with node:crypto where the runtime provides it. The encoder walks the value once, refusing what ENC-1 excludes with a CanonicalEncodingError naming the place ($.a[0].b, as before): undefined (also an array hole), a number that is not a safe integer, a function, symbol or bigint, a string or member name holding a lone surrogate (D-044; canonicalize refused those too), an object with a toJSON method (a Date: canonicalize would have written what the method returns), a cycle (found once the walk is 100 levels deep, where it starts tracking the objects on its path, so ordinary values pay nothing) and a value nested deeper than the stack allows. What it writes is RFC 8785 as canonicalize writes it, byte for byte: keys in UTF-16 code-unit order, strings as JSON.stringify writes them, integers as String(n), so -0 is 0; where JSON.stringify already writes the canonical text (a whole value whose keys are in order, or an array of scalars) the native JSON.stringify writes it, checked for escaped surrogates. Its tests compare the encoder with canonicalize on every digest vector and on thousands of generated values (any UTF-16 strings, escape look-alikes, tricky member names, key-sorted copies, fc.jsonValue), and checks the refusals and their paths. SHA-256: node:crypto, obtained through process.getBuiltinModule (Node 20.16 and later) so that no module of the spec imports node: statically and the same code bundles for a browser; @noble/hashes where that is absent (a browser, an older Node), and the tests check that both give every vector's digest. canonicalize and @noble/hashes stay dependencies: the first as the reference the encoder is tested against, the second as the portable hash. The digests do not change.",
    why: "A digest was 11 to 67 times slower than node:crypto hashing the same bytes (issue 26): the subset check and canonicalize each walked the value, canonicalize built the text through an array and a join per container, and @noble/hashes, pure JavaScript, was 3 to 20 times slower than native code. One walk that checks and writes, native JSON.stringify where its output is already canonical, and native hashing make a digest 5 to 8 times faster: measured on a loaded two-core machine, the small value went from about 0.1× node:crypto to 0.85 to 1.05×, the medium one from 0.05× to 0.29 to 0.33× (at the goal of 0.3×, not safely above it), the large one from 0.02× to 0.10 to 0.12×. The large value (an aggregated store state whose text is mostly 2,000 short strings) stays short: writing the text is the cost, and even native JSON.stringify of the same value, which is not canonical, takes three to eight times as long as hashing its bytes, so no encoder that writes the text from the value can reach 0.3× there; only caching texts or digests could, which the alternatives below reject. Testing against canonicalize keeps RFC 8785 conformance pinned to a maintained implementation, which is why D-003 chose the package; the equality is checked, not assumed. getBuiltinModule rather than a static import because a static node: import breaks a browser bundle, and a dynamic import would make digestOf asynchronous.",
    paper:
      "Neither paper fixes an encoding or a hash implementation; this is about how fast the kit computes the digests ENC-1 to ENC-5 define, which stay the same.",
    alternatives:
      "Keep canonicalize and only switch to native hashing (measured before this decision: the subset check and canonicalize alone cap the ratio at 0.02 to 0.18×); a byte writer into a Uint8Array instead of a string (prototyped: a fifth faster on the large value, slower on the medium one, short of the goal on the large one all the same, and it needs its own UTF-8 encoder); an array and a join per container, as canonicalize does (measured slower than += and than JSON.stringify of arrays of scalars); a seen-set from the top for cycles (a Set insertion and deletion per object on every digest, for a value the kit never builds); a fixed depth limit (refuses legitimate deep values and still walks a cycle to the limit); import('node:crypto') (asynchronous) or createRequire (not in a browser); caching a value's text or digest by identity (the values are mutable, and a benchmark would then measure the cache); caching which string values need no escape (measured: the medium value 15 to 20 % faster, but only because the benchmark digests the same strings again and again; member names are cached, as they are a small fixed vocabulary); hashing with crypto.subtle (asynchronous everywhere).",
    refines: [],
  },
  {
    id: "D-069",
    title: "The golden stage restarts the implementation inside every transcript and at its end",
    kit: true,
    decision:
      "The golden stage (and srk golden) sends a shutdown after every 40 lines of a transcript and, once it is answered, starts the implementation again on the same data directory; the transcript then goes on, and every later reply must still be the one in the file. A session that agrees with its transcript to the last line is then recovered: its world is queried, the implementation is shut down and started again, and its world is queried again; both must equal the reference model's world after the transcript's requests (commands applied, reset emptying it, queries changing nothing), computed from the transcript alone. A difference after a restart names its transcript line and the restart before it; a failure to restart, or a recovered world that differs, is a golden finding (check golden/<session>/recovery) attributed by the fields that differ (D-035), with a portable trace whose shutdown srk replay follows by a restart on the same directory. The transcripts themselves are unchanged: the restarts are the runner's, inserted at fixed line counts.",
    why: "W-7.1 makes every answered command durable, and until now only the crash stage restarted an implementation, inside one generated session of a few dozen commands that may hold no merge, no excision of an early batch and no migration. Generated mutants of the bundled implementation's persistence (issue 21: an obligation written as nothing, lineage steps not rewritten after an excision, used nonces and migration ids written under the wrong part) answered every golden line and were certified; a restart at the end of each transcript makes the world view's part of that state checked, and restarts inside the transcripts make the lines after them check what the view does not show (a duplicate refused before the restart must be refused after it). Fixed counts rather than chosen lines keep the transcripts the same for every implementation and need no reading of which line depends on which state; 40 lines gives 2 to 8 restarts in the long generated sessions and none in the short scripted ones, which the end check covers, for about one extra process start per 40 requests.",
    paper:
      "Neither paper describes testing. Samsara (Section 3, Samskara) makes a life's lineage and dispositions what persists, and RIPA (Section 4) makes identity and memory survive a change of host: both assume that what an agent was told survives the process that was told it, which is what W-7.1 states and these restarts check.",
    alternatives:
      "Leave durability to the crash stage (its one session decides what is checked, and it missed every mutant above); restart before every line (a process start per request: minutes per certification); restart only before the lines whose checks read hidden state (needs a map from check to state that the transcripts would have to carry, and misses state a later operation reads indirectly); write the restarts into the transcripts as lines (an implementer's replay of the files would then need the runner's restart logic anyway, and every transcript would change); compare the recovered world with the one queried before the restart instead of the model's (misses an implementation that was already wrong and stays consistently wrong).",
    refines: [],
  },
  {
    id: "D-070",
    title:
      "Cancellation: one AbortSignal from srk certify to every implementation process, and a partial certificate on an interrupt",
    kit: true,
    decision:
      "A certification runs under one AbortSignal: a library caller's (certify({ signal })) or, for srk certify, the one SIGINT or SIGTERM aborts; each stage runs under that signal combined with its hard time limit (budget and grace, a referenced timer). When it fires, every request in flight and every later one rejects with CutShort (the runner stopped, not the implementation: it is never counted as an implementation fault), every implementation process group gets SIGTERM and, 2 s later, SIGKILL, and is reaped before the certificate is written; no process starts after it. The stage under way is recorded inconclusive, 'cut short: interrupted by SIGINT', its findings dropped as a timed-out stage's always were; each later stage inconclusive, 'not run: the certification was cut short'; the result follows D-036 (exit 2, or 1 when an earlier stage already found a violation, which is kept). A second interrupt exits at once with 128 + the signal number, the process groups killed by the exit hook. srk certify --jobs starts its shard processes in their own groups and passes the first interrupt on to each once; each writes its partial certificate and they are merged. The stages' budget checks stay on the clock (outOfTime: the budget is spent or the signal fired): the deadline is the budget's soft end, after which a stage still reports what it did; the signal is the hard end.",
    why: "Stopping the wait for a stage left the stage and its processes running, and Ctrl-C ended the runner with no certificate and sometimes implementation processes left behind (issue 22, item 5). A rejection unwinds a stage without every stage checking a flag; not an Undrivable, because stages turn those into implementation faults and would blame the implementation for the runner stopping. A timer signal at the soft deadline would fire only when the event loop reaches it, so a stage could run one more unit than before and change witness counts at the budget's edge: the clock is kept for the soft end.",
    paper: "Neither paper describes testing; this is how the kit's runner stops.",
    alternatives:
      "A new outcome kind 'aborted' in the transport (every exhaustive match in stages and oracle must handle it, and a stage goes on unless it checks); CutShort as an Undrivable (blames the implementation); a signal parameter on every Target method (stages would have to know about cancellation); AbortSignal.timeout for the stage limit (its timer is unreferenced, so a stage stuck on a promise without a handle would let the process end with no certificate); children in the terminal's process group under --jobs (a Ctrl-C would reach them twice and the second makes them quit without a certificate, and a kill of the parent alone would orphan them); a top-level 'interrupted' member in the certificate (clearer for readers, a schema change left for later: the stage reasons say it today).",
    refines: [],
  },
  {
    id: "D-071",
    title:
      "Exploration: the default scope in three parts, every check clause reached or explained, symmetry over instance ids",
    kit: true,
    decision:
      "A scope may list parts, each the scope with its own fields laid over it; srk explore explores each part from the initial world and adds the results (steps, distinct states, per-depth, per-operation and per-check counts; the deepest depth; each predicate's shallowest violation), listing each part's figures. The default scope has three: samsara (one agent, two lives, every Janma, custody and Samskara step and the refusal makers, depth 10), ripa (tasks, effects, body, identity, surfaces, replicas, descent, restart, depth 4) and migration (every phase, valid, invalid and out of order, and one refused command of every operation quiescence blocks, depth 8). A check clause holds when a command passes it, a refused command included (every check before the one that fired, in OP-0.2 order); a clause or operation not reached both ways is listed with its reason: by construction when the check table (CHECKS.md) marks it unreachable or always rejecting, or when it has no rejection target, otherwise the scope's limit. Makers reuse the property generator's command builders wherever they exist. A scope may declare instance ids symmetric: a state's fingerprint is then that of the least of its canonical texts under every permutation of those ids (whole id tokens renamed, so derived names follow). The visited set is a typed-array hash set of 64-bit fingerprints, and the result states its bytes per million states and the heap's growth.",
    why: "One graph of every family multiplies their state spaces (depth 5 held about 14,000 states and grew about 13-fold per level), while a migration needs seven commands to resume; each family explored deep on its own reaches all 116 clauses and all 34 operations in minutes. What is lost is interleaving across families, except the one the checks name (every quiesced operation refused during a migration, OP-0.4), which the migration part keeps. Counting a refused command's passed checks as held is what lets an always-refused operation's lookup show as held. Instance symmetry is sound for what is counted when the model treats those ids by equality; agent symmetry is not offered because every digest derives from the root, so renamed agents almost never share a representative.",
    paper:
      "Neither paper describes exploration; the scopes are the kit's, and what they reach is measured against spec/CHECKS.md.",
    alternatives:
      "One graph with per-maker depth windows (more knobs, still the product of the families where both run); random walks for the deep parts (what the property suites already do); the default left as Samsara only with a named composite (the default must reach every clause); agent symmetry by abstracting digests to their order of first occurrence (needs an argument that the model compares digests only for equality; left open); a JavaScript Set of fingerprint strings (about 100 bytes per entry against 16 to 32).",
    refines: [],
  },
  {
    id: "D-072",
    title:
      "Exploration's counterexamples: traces of the model's replies ending in a world query, and model mutants judged reached by a probe",
    kit: true,
    decision:
      "Each predicate violation srk explore finds is written (with --out) as a portable trace and as ITF: one command request per command of the shortest path, each expecting the exploring model's normative reply (with the rejection's check when the model refused), then one world query expecting the model's world after the path; the failing step is the path's last command, the check explore/<scope>/<invariant>, the stage differential (a trace of model-planned requests compared reply by reply, which is what that stage replays). A model-side mutant catalog (conformance/explore/model-mutants) breaks the model's rules as the implementation catalog's twins break the implementation's, at least one per invariant; each mutant declares, from its rule alone, the step that exercises it (the operation, and the check that refuses it in the correct model, or an accepted step with a condition), and the runner explores the correct model with one probe per mutant: a mutant whose probe never fires within the scope is not reached, with the reason from the counts, and is not explored; a reached one that no predicate flags is missed. A mutant found under another invariant counts as found, and the report says so. Twins whose change lies inside a function the predicates themselves call (the aggregate, the consent check, lineage replay) or that change only events are left out, each named with the reason.",
    why: "A model bug often shows in the state, not the reply (a model that keeps excised content answers the excision as the correct one does), so the final world query lets srk replay see it; the replies are the model's, so the correct implementation replays a correct model's trace without a difference and fails a mutant model's at the first step they part. Deciding reach from a probe on the correct model keeps 'found' from deciding 'reached', which would make every miss unreachable by definition.",
    paper:
      "Neither paper describes testing; the traces use the kit's portable trace format (the certificate's schema) and ITF as Quint writes it.",
    alternatives:
      "A world query after every step (finds the first divergent step of a state-only bug, at n times the trace's size); no world query (misses state-only bugs); an 'explore' stage name in PortableTrace (clearer provenance, a schema change; the check's prefix says it today); 'reached' as 'the check fired at least once' (too coarse for a moved bound); calling every mutant not found unreached (circular).",
    refines: [],
  },
  {
    id: "D-073",
    title:
      "Log checking reads in chunks and parses each line in its turn; srk record writes a JSON line's own text as msg",
    kit: true,
    decision:
      "srk check-log reads a log in 256 KiB chunks, synchronously, hands out each chunk's lines as bytes, and decodes, parses and checks an entry (L-1.2) only when its turn comes, with one await per chunk; an error found in a chunk (a line too long, bytes that are not UTF-8) is raised after the lines before it were checked, so errors come in file order. Replies and world views are first compared for equality without building a difference (sameValue, true exactly when firstDifference finds none); the difference and its attribution are computed only when they differ. srk record writes a line that is UTF-8 and one JSON text (checked by a byte-level scanner with JSON.parse's grammar, not recursive) into its entry as the line's own bytes, without parsing and re-serialising it; anything else is kept as raw, as before. Each batch is built as bytes and written with one write. L-1.2 says msg may be the line's own text, so readers must not assume a canonical serialisation (1e400 stays 1e400 instead of becoming null).",
    why: "Issue 23's goals: check-log at half the model's bare transition rate, and srk record adding little to a bare relay. Two chained async generators cost several microtasks per line and parsing a batch ahead keeps thousands of parsed lines alive; equal replies, nearly all of them, paid for a key set and a path string per node. In the recorder the JSON work of parsing a line only to write it back was most of the logging CPU (measured about 5 to 6 µs per round trip, 2.3 to 2.8 µs after).",
    paper: "Neither paper describes logs; L-1.2 is the kit's log format.",
    alternatives:
      "A read stream (a thread-pool hop per 64 KiB chunk); parsing a whole batch first (garbage kept across a scavenge); validating with JSON.parse and embedding the text (saves only the stringify); a worker thread for the recorder's log (ordering and the synchronous flush at exit get hard); a longer batch delay than L-1.4's 5 ms (cheaper per batch, more lost if the recorder is killed: a change of the format left for later).",
    refines: [],
  },
  {
    id: "D-074",
    title:
      "The exhaustive stage: every edge of a small scope of the model driven over the wire, in the default campaign on the quick scope",
    kit: true,
    decision:
      "A certification stage, exhaustive, between the wire and differential stages. It explores the model breadth first over a scope (srk explore's scopes), trying only the operations the profile declares (W-5.2), and drives every edge (state, command) of the graph it finds over the wire: sessions walk the breadth-first tree depth first from the initial world (a reset before each); on its first visit to a state a session sends every command the model rejects there (a rejection leaves the state as it was, OP-0.2), then a world query, so every distinct state's world view is compared once; the first child goes on on the same session, each other child on a new one that replays the tree path to its parent; each accepted command that reaches a state already seen (up to the scope's symmetry) gets a session of its own (the tree path, the command, a world query). Every reply and world view is compared with the model's; a difference is refined and attributed as in the golden stage (D-035) and reported with its session's trace; the stage goes on and reports at most one finding per invariant and one for the wire protocol; a protocol break starts a new process. The default campaign runs it on the shipped scope quick (the default scope's three parts at depths 6, 3 and 5: 2,616 edges of 356 states, 394 sessions and 4,548 requests for the whole profile, a few seconds against the kit's implementation); --exhaustive <scope> names another, a shipped name or a file, refused with exit 64 if it does not load; the certificate's settings.exhaustive_scope names the scope. Shards deal the sessions out; the cover is checked by replaying its sessions in the model and comparing the edges they drive with the explorer's.",
    why: "Issue 27 item 3: every other check samples, so a certificate could say how many runs found nothing but never that no behaviour of a given size differs from the model. The quick scope fits the time goal, so it is in the default campaign, as the issue asks when it fits. Before the differential stage, because a budget spent by sampling and shrinking must not leave the deterministic check undone. Exploring with the profile's operations only drives a partial profile through the graph it can reach; skipping every session that holds another family's operation would have skipped almost all of them, since every state's rejections include every family's.",
    paper:
      "Neither paper describes how an implementation is certified; the stage checks the invariants of both papers through the reference model, as the differential stage does.",
    alternatives:
      "Opt-in only (the quick scope costs seconds, so nothing is saved); after the differential stage (shrinking can spend the budget first); the default or large scope by default (tens of thousands of edges and over a hundred thousand requests: minutes on the wire); one session per edge (requests grow as edges times depth); a single tour through every edge (needs an undo the protocol does not have: only reset); a restart before each world query, which would check W-7.1 at every state (a process start per session, tens of seconds for the quick scope; the golden stage restarts every 40 lines instead).",
    refines: [],
  },
  {
    id: "D-075",
    title:
      "Coverage against the explored graph: abstract edges, the differential campaign's figure, and guidance toward uncovered edges",
    kit: true,
    decision:
      "The coverage figure counts abstract edges: (abstract state before a step, operation, outcome), the outcome ok or the spec/CHECKS.md check that refused the command. The abstract state of a world view keeps, per agent, the number of lives in each Janma state, of obligations of each kind, of distillates, excisions and quarantined digests, the migration's phase, and the number of replicas, live attempts, effects, fences, surfaces and migration reports and whether a target marker is set, each count capped at 2; agents are sorted by their abstract text; every id, text, digest and tick is dropped. The reachable set is the set of abstract edges of the certification's scope (the exhaustive stage's, quick by default) explored with the profile's operations. The certificate's coverage.edges records the scope, the number of reachable edges, the reachable edges the differential campaign's agreed runs made (as indices into their sorted list, so shards merge by union) and the number the same seed's runs would make without guidance. Guidance: before sending anything, for each run the differential stage draws 4 cases, run k's own (its seed as before) and 3 from seeds derived from it, plans each in the model and keeps the one that adds the most reachable edges not made by the runs before it (ties: most new edges of any kind, then the earlier candidate). The schedule is computed from the model alone over the whole campaign, so a run is the same case on every shard and whatever the implementation replies. The report and the stage's notes give both figures.",
    why: "Issue 27 item 4: with the explored graph as ground truth a certificate can say how much of the reachable behaviour the random campaign touched, which no sampling tool reports, and the runner, which owns the model, can steer the generator to what it has not touched. With the seed 1 and 300 runs, the unguided runs make 226 of the quick scope's 599 reachable edges, the guided runs 362 (8 candidates: 436), for about four seconds of planning in the model.",
    paper:
      "Neither paper describes coverage; the abstraction keeps what the papers' rules branch on (a life's state, Janma; an obligation's kind, Samsara's distillation and custody; the migration's phase, RIPA) and drops the values they digest.",
    alternatives:
      "The exact world as the state (the campaign's ids, manifests and ticks never equal the scope's, so no edge would ever match); the two state machines already counted (15 transitions, all covered by any campaign); uncapped counts (the abstract space grows with run length and no scope reaches its tail); guidance steered by what the implementation replied (a run would depend on the implementation and on the shard); guidance by mutating the fast-check choices toward a target edge (needs the generator to expose a search interface; choosing among whole drawn cases reuses fast-check as it is and keeps shrinking unchanged, since a chosen case is shrunk from its own seed); more candidates by default (8 gain another 74 edges for twice the planning).",
    refines: [],
  },
  {
    id: "D-076",
    title: "Step clauses: the rules a single accepted step can break without leaving a state that shows it",
    decision:
      "Six invariants whose predicate reads states or histories also carry a step clause, read on every accepted step: J-4, custody acts on a pending obligation, an attempt strictly before the deadline tick with an attempt left, an expiry at or after it, and a merge applies no pending obligation at or after its deadline and names none discharged another way (OP-3.1.c2-c4, OP-3.2.c2-c3, OP-4.1.c3-c4); S-1, a distillation keeps no guidance repeating 4 consecutive tokens of the life's trace (OP-2.7.c9); AD-4, an act's identity, nonce, manifest digest and tick are the projection's and its signature recomputes (OP-2.3.c5); I2, a task is resumed, requested or replied to only when memory recorded it (OP-6.3.c2, OP-6.4.c2, OP-6.5.c1); I4, an effect is performed by the holder under the current token, a request's attempt nonce is fresh and a reply answers the live attempt (OP-6.6.c1, OP-6.4.c3, OP-6.5.c2); I5, an effect goes through a bound provider that grants its capability (OP-6.6.c2-c3). A clause reads the previous world, the command and the acceptance, never the guard; a rejected step breaks none. srk explore checks every clause on every accepted edge (not only on the first path to a state) and reports a broken clause as a violation of its invariant, with the shortest path and a portable trace; the random model property checks them after every step. The predicates keep their kinds (the invariant catalog): a clause adds to a predicate, it does not replace it.",
    why: "Issue 27 item 2: with the predicates alone, 7 of the model mutants whose rule the default scope reaches were not found: a custody attempt or a merge at the deadline tick, guidance that leaks the trace, an act under a signature that does not recompute, the resume of an unknown task, an effect under a stale token and one through a provider that does not grant its capability each leave a state that a correct step could also have produced (the trace is destroyed by the same step that distils it; the signature and the token are not kept). With the clauses the explorer finds all 7 at the default scope, at depths 4 to 9.",
    paper:
      "Samsara states J-4, S-1 and AD-4 and RIPA states I2, I4 and I5 as properties of what an agent may do, not only of what it holds: custody before the deadline (Samsara, Janma), no trace in the disposition (Samskara), a signed act (Advaita), resume only known work, act only under the current epoch, through the granted provider (RIPA). The papers do not say which of these a state alone can witness.",
    alternatives:
      "Changing those invariants' predicate kinds to transition (the invariant catalog records the papers' reading, which is about states; a transition-only predicate would lose the state checks they make now); keeping evidence in the model state (the acts' signatures, the tokens effects were performed under, the trace after distillation: the last contradicts S-1 itself, and the others would enlarge every world the explorer stores); counting such mutants as unreachable (they are reached: the scope drives the step, only nothing looks at it).",
    refines: ["J-4", "S-1", "AD-4", "I2", "I4", "I5"],
  },
  {
    id: "D-077",
    title: "One formatter and linter for the kit's source: Biome, run by npm test",
    kit: true,
    decision:
      "Every TypeScript and JavaScript file of the kit (sources, tests, scripts, the adapters; not its JSON, Markdown or transcripts, whose bytes are digested or compared) is formatted by Biome with a 120-column line, two-space indents, double quotes and trailing commas, and linted by Biome's recommended rules except seven, each switched off with its reason in the configuration: literal keys (the kit reads index signatures with brackets), non-null assertions (noUncheckedIndexedAccess makes them the way to state a read in range), unused parameters (the type checker already checks them), assignments in expressions (the memo idiom), template syntax in plain strings (workflow expressions, shell variables and source snippets the kit writes on purpose), duplicated test hooks (the rule reads helpers named before and after as mocha hooks) and forEach callbacks that return a value. A line that must break a rule says why in a suppression comment beside it. npm test runs biome ci with warnings as errors before the tests, so a file the formatter would change or any diagnostic fails it; biome check --write formats and applies the safe fixes. The source was reformatted in one commit, listed in .git-blame-ignore-revs. Mutants that patch source text (the implementation's and the model's catalogs) were re-pinned to the new layout by matching their text up to whitespace, and still apply exactly once; generated mutants stay identified by the file, line and column of the commit they were measured at, and their triage is checked against the measured report and the change the generator makes now, compared without layout.",
    why: "Issue 22: no formatter or linter ran, and 2,101 lines were wider than 120 columns. A formatter ends layout as a subject of review and makes diffs show only what changed; a linter catches mistakes the type checker does not (an optional chain whose undefined escapes, a control character in a pattern by accident, a shadowed global). Biome does both in one dependency, reads TypeScript natively, and runs on Node 20 as a native binary from the npm registry with no install script.",
    paper: "Neither paper concerns how the kit's source is laid out; this is about the kit itself.",
    alternatives:
      "Prettier and ESLint with typescript-eslint (two tools and a plugin stack; typescript-eslint's supported TypeScript range would pin the compiler); dprint (a formatter only); formatting without a linter (the issue asks for both); the full recommended rule set (each rule switched off above fires on a deliberate idiom of the kit, and rewriting hundreds of lines to satisfy a style rule would move every mutant again for no finding); leaving the implementation unformatted so that no generated mutant id moves (ids already move with any edit above them; the triage is now checked by the change, not the position).",
    refines: [],
  },
  {
    id: "D-078",
    title: "A certification stage drives and records a history; checkers alone judge it",
    kit: true,
    decision:
      "Every stage of srk certify is a driver and checkers. The driver sends, receives, restarts, kills and reads the data directory, and records all of it in a History (the runner's conformance/core/history module): the ordered, plain-JSON record of one unit of the stage's work, in parts (one plan, one pass, one cut, one run), with common events (an exchange with the model's expected reply where the driver computed one, a break of the wire protocol, a restart, a failed restart, a scan of the data directory, a stop, a mark) and the stage's own event types declared beside its driver (the raw bytes of a hostile batch and how it ended, a crash cut, an algebra group with the model's side). The driver decides only what it needs to go on (where to stop, whether to send the catalog again line by line, which probe or shrink candidate comes next, which cuts the agreed baseline allows), and where that needs a judgement it calls a checker. Checkers are pure functions from a history to findings, notes, check counts, witnesses and the stage's outcome; they never drive. W-2.2 (a shutdown answered and then ignored), which the transport sees as sessions close, is one more checker over the Target's record, applied after every stage. A stage's definition (in the stage's own module under conformance/stages) joins its catalog entry (its name, the invariants it concerns, its description, kept in the stage catalog of conformance/core), how its campaign is dealt to shards, and its run; the stage registry lists the definitions in the spec's order, and the order, the runners, the verdict rules' concerns, the report text and the shard gate are read from there. The catalog entries stay data in core/ because the verdict rules, the reporters, srk list and the generated reports read them without loading any runner (srk list starts in about 2.5 times node's own start; loading every stage's driver and the model would cost that), and because the stages import the verdict layer (witnesses), so the verdict rules importing the stages would make a circle.",
    why: "Issue 22: each stage judged while it drove and kept its own books, so nothing could be judged after the fact: no portable trace or report story could be made from a record, no check could be rerun on a recorded run, and exploration and log checking had nothing to read. A history that checkers read afterwards is Maelstrom's shape (a workload is a generator, a client and a checker; a run yields a history), and it separates what an implementation did from what the kit concluded.",
    paper:
      "Neither paper concerns how the kit's runner is built; this is about the kit itself. The wire protocol (spec/wire/PROTOCOL.md) is what is driven, and is unchanged.",
    alternatives:
      "Keeping the stages as they were (the issue's objection); one closed event union for every stage (every stage's observations in core/, which then knows every stage); a serialised history file per stage in the output folder (it can be made from the history when a report needs it; writing every history of a certification, about 3 MB for the wire catalog's raw bytes alone, is not wanted by default); putting each catalog entry in its stage's file (the readers above would load every runner, or the verdict layer and the stages would import each other).",
    refines: [],
  },
  {
    id: "D-079",
    title: "One seeded generator for the runner's sampled choices: mulberry32, seeded from the certification's seed",
    kit: true,
    decision:
      "Every choice the runner samples outside fast-check (the algebra stage's sampled merge orders and excision cases, the crash stage's kill moments, the forgetting stage's marker words) draws from one generator, the runner's seededRandom (mulberry32, 32-bit state, in conformance/oracle), seeded from the certification's seed and the unit's index, so each depends on the seed alone and replays from it. Generated runs (the differential campaign, the crash stage's session) are fast-check's, seeded from the same seed through fast-check's own generator. The shard module's runSeed is not a generator: it mixes the campaign seed and a unit's index into that unit's seed (D-038), so that neighbouring units do not share streams.",
    why: "Issue 22 found three seeded-randomness schemes and asked for one. Two were already the same generator (the crash stage now uses seededRandom too); the third is a seed mixer. Replacing mulberry32 by one of pure-rand's generators would change every sampled choice of every certification on the same seed, while the issue asks that every verdict, witness count and certificate field stay the same before and after the redesign on the same seed, and a certificate's seed is how its run is reproduced.",
    paper: "Neither paper concerns how the kit samples; this is about the kit itself.",
    alternatives:
      "pure-rand's xoroshiro128plus or mersenne (fast-check's own generators: a well-kept library, but not a direct dependency of the kit, whose version fast-check chooses, and adopting it changes every sampled choice); crypto.randomInt with a seed (Node has no seeded form); one fast-check arbitrary per sampled choice (ties the stages' sampling to fast-check's shrinking, which these choices do not need).",
    refines: [],
  },
];

const byId = new Map(DECISIONS.map((d) => [d.id, d]));

export const decision = (id: Decision["id"]): Decision => {
  const d = byId.get(id);
  if (d === undefined) throw new Error(`unknown decision ${id}`);
  return d;
};

/** Decisions that refine an invariant, in id order. */
export const decisionsRefining = (id: InvariantId): readonly Decision[] =>
  DECISIONS.filter((d) => d.refines.includes(id));
