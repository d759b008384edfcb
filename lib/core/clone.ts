/**
 * A deep copy of JSON data made in the caller's realm (unlike `structuredClone` in some sandboxes),
 * with JSON's rules: properties whose value is `undefined` are left out, `undefined` in arrays becomes
 * `null`. Throws a `TypeError` naming the path for anything JSON cannot hold (functions, symbols,
 * bigints, non-finite numbers, class instances such as Date or Map, cycles).
 *
 * @example
 * ```ts
 * const copy = cloneJson({ a: [1, { b: 'x' }] });
 * ```
 */
export function cloneJson<T>(value: T): T {
  return copy(value, '$', []) as T;
}

function copy(value: unknown, path: string, stack: object[]): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} is not JSON`);
      return value;
    case 'object': {
      if (value === null) return null;
      if (stack.includes(value)) throw new TypeError(`${path}: circular reference`);
      stack.push(value);
      let out: unknown;
      if (Array.isArray(value)) {
        const arr = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          const item = value[i];
          arr[i] = item === undefined ? null : copy(item, `${path}[${i}]`, stack);
        }
        out = arr;
      } else {
        const proto = Object.getPrototypeOf(value);
        // Plain objects of any realm (a sandbox's Object.prototype is not ours) or null-prototype ones.
        if (proto !== null && Object.getPrototypeOf(proto) !== null) {
          throw new TypeError(`${path}: ${proto?.constructor?.name ?? 'object'} is not plain JSON data`);
        }
        const obj: Record<string, unknown> = {};
        for (const k of Object.keys(value)) {
          const v2 = (value as Record<string, unknown>)[k];
          if (v2 === undefined) continue;
          const c = copy(v2, `${path}.${k}`, stack);
          // A key named `__proto__` (JSON.parse makes them) must stay data: plain assignment would
          // replace the copy's prototype instead of adding a property.
          if (k === '__proto__')
            Object.defineProperty(obj, k, { value: c, enumerable: true, writable: true, configurable: true });
          else obj[k] = c;
        }
        out = obj;
      }
      stack.pop();
      return out;
    }
    default:
      throw new TypeError(`${path}: ${typeof value} is not JSON`);
  }
}
