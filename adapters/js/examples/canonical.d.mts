/** Types of canonical.mjs for the kit's TypeScript tests (the examples themselves are plain JavaScript). */
export declare const DOMAIN_TAGS: Map<string, string>;
export declare const canonical: (value: unknown, where?: string) => string;
export declare const digestOf: (name: string, value: unknown) => string;
export declare const identityOf: (baseDigest: string, lineageRoot: string) => string;
