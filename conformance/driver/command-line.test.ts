/** The --impl command line: quoting, the {data_dir} placeholder, and what is refused. */
import { describe, expect, it } from "vitest";
import { implSpawnSpec, splitCommandLine, UsageError } from "./command-line.ts";

describe("--impl command line", () => {
  it("splits with shell quoting rules", () => {
    expect(splitCommandLine(`python3 "my impl.py" --name 'a b' x\\ y`)).toEqual([
      "python3",
      "my impl.py",
      "--name",
      "a b",
      "x y",
    ]);
  });

  it("appends --data-dir DIR without a placeholder, substitutes {data_dir} with one", () => {
    expect(implSpawnSpec("./impl --fast", "/d", "/w")).toEqual({
      command: "./impl",
      args: ["--fast", "--data-dir", "/d"],
      cwd: "/w",
    });
    expect(implSpawnSpec("./impl --db {data_dir}/s.db --log={data_dir}", "/d", "/w")).toEqual({
      command: "./impl",
      args: ["--db", "/d/s.db", "--log=/d"],
      cwd: "/w",
    });
  });

  it("refuses shell operators and empty command lines with a usage error naming the problem", () => {
    expect(() => splitCommandLine("impl | tee log")).toThrow(UsageError);
    expect(() => splitCommandLine("impl && rm -rf x")).toThrow(/shell construct/);
    expect(() => splitCommandLine("   ")).toThrow(/empty/);
  });
});
