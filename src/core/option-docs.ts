/**
 * The options a family accepts, each with a one-line description (what it does, its default). A
 * nested object describes an option whose value may be an object with those keys (`prior: {a0, b0}`);
 * such an option may also accept a number or an array where the family says so.
 */
export interface OptionDocs {
  readonly [key: string]: string | OptionDocs;
}
