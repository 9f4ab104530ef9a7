/** Query flags travel as the strings `true` and `false`. */
export function booleanText(value: boolean | undefined): "true" | "false" | undefined {
  return value === undefined ? undefined : value ? "true" : "false";
}
