// TEMPORARY (lead): re-export while a helper still imports the old path; removed before landing.
export * from "../../conformance/mutants/harness.ts";
