import { badUserInput } from "../errors.ts";
import type { JsonObject } from "../upstream/json.ts";
import { nullProblem } from "./ids.ts";

/**
 * The PATCH body for an input object: exactly the fields the client gave. graphql-js leaves an
 * omitted input field out of the object, so "given" is "present"; an explicit `null` has no
 * meaning upstream (the seed types these fields as non-null): admission refuses it for the whole
 * operation (the input type is declared REFUSES_NULL); this is the resolver's guard.
 */
export function patchBody<T extends object>(
  input: T,
  inputName: string,
): { [K in keyof T]?: Exclude<T[K], null | undefined> } {
  const body: JsonObject = {};
  for (const [field, value] of Object.entries(input)) {
    if (value === null) {
      const argument = `${inputName}.${field}`;
      throw badUserInput(nullProblem(argument), { argument });
    }
    if (value !== undefined) body[field] = value;
  }
  return body as { [K in keyof T]?: Exclude<T[K], null | undefined> };
}
