// Writes dist/contract-types.d.ts: the client's view of the contract as plain, named TypeScript
// types, in place of the declaration tsc emits (which re-exports @riff/contract, whose zod-inferred
// declarations weigh 11 MB and cost an app's type check seconds and a gigabyte and more).
//
// Every type is read from the contract by the compiler and printed structurally; a structure equal
// to a named model (an exported type of the contract, or a schema named for the OpenAPI document)
// is printed as that name. The reply of every call keeps its union by status. The one deliberate
// difference: an error's `code` is the union ErrorCode (the schema keeps a string, so that replies
// with codes added later still validate).
//
// Run after tsc (npm run build); it needs @riff/contract built (its dist is imported to find the
// named schemas).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outFile = path.join(clientDir, 'dist', 'contract-types.d.ts');
const entryFile = path.join(clientDir, 'src', '__declarations-entry.ts');

const contract = await import('@riff/contract');
const isSchema = (value) => value !== null && typeof value === 'object' && '_def' in value && 'safeParse' in value;
/** Exported schemas named for the OpenAPI document: [export name, title]. */
const namedSchemas = Object.entries(contract)
  .filter(([, value]) => isSchema(value) && typeof value.metaOpenApi?.title === 'string')
  .map(([name, value]) => [name, value.metaOpenApi.title]);
/** The values the client re-exports, declared by hand or from their types below. */
const LIVE_SCHEMAS = { LiveClientMessageSchema: 'LiveClientMessage', LiveServerMessageSchema: 'LiveServerMessage' };
/** Types of the contract a client has no use for (they describe the router or the zod schemas). */
const SKIPPED_TYPES = new Set(['RiffContract']);
/** Helper types of the client, printed under these names. */
const CLIENT_TYPES = ['LoginBody', 'TwoFactorLoginBody', 'LoginReply', 'LogoutReply'];

const entryText = [
  "import type * as C from '@riff/contract';",
  "import type { z } from 'zod';",
  "import type * as K from './contract-types.js';",
  'export type __Api = K.RiffApi;',
  'export type __CloseCodes = typeof C.LIVE_CLOSE_CODES;',
  ...CLIENT_TYPES.map((name) => `export type __Client_${name} = K.${name};`),
  ...namedSchemas.flatMap(([name]) => [
    `export type __Out_${name} = z.output<typeof C.${name}>;`,
    `export type __In_${name} = z.input<typeof C.${name}>;`,
  ]),
].join('\n');

const options = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  customConditions: ['@riff/source'],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
};
const host = ts.createCompilerHost(options);
const readSource = host.getSourceFile.bind(host);
host.getSourceFile = (file, language, ...rest) =>
  path.resolve(file) === entryFile
    ? ts.createSourceFile(file, entryText, language)
    : readSource(file, language, ...rest);
const baseFileExists = host.fileExists.bind(host);
host.fileExists = (file) => path.resolve(file) === entryFile || baseFileExists(file);
const program = ts.createProgram([entryFile], options, host);
const checker = program.getTypeChecker();
const problems = ts.getPreEmitDiagnostics(program, program.getSourceFile(entryFile));
if (problems.length > 0) {
  throw new Error(ts.formatDiagnostics(problems, { ...host, getNewLine: () => '\n' }));
}

const entry = program.getSourceFile(entryFile);
const entrySymbol = checker.getSymbolAtLocation(entry);
const entryType = (name) => {
  const symbol = checker.getExportsOfModule(entrySymbol).find((candidate) => candidate.name === name);
  if (!symbol) throw new Error(`${name} is missing from the entry`);
  return checker.getDeclaredTypeOfSymbol(symbol);
};

// ---- printing ----

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const propertyName = (name) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const isLibType = (type) => {
  const declarations = (type.aliasSymbol ?? type.symbol)?.declarations ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((declaration) => {
      const file = declaration.getSourceFile().fileName;
      return /[\\/]typescript[\\/]lib[\\/]lib\..*\.d\.ts$/.test(file) || /[\\/]@types[\\/]node[\\/]/.test(file);
    })
  );
};

/** name → canonical text of the structure it names; canonical text → name. */
const names = new Map();
const byStructure = new Map();
/** Field types replaced in a named model's declaration: [model, field, type]. */
const FIELD_OVERRIDES = [['ErrorBody', 'code', 'ErrorCode']];

const canonicalCache = new Map();
const inProgress = new Set();

function unionMembers(type) {
  const members = type.types;
  const hasTrue = members.some(
    (member) => member.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(member) === 'true',
  );
  const hasFalse = members.some(
    (member) => member.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(member) === 'false',
  );
  const rest =
    hasTrue && hasFalse ? members.filter((member) => !(member.flags & ts.TypeFlags.BooleanLiteral)) : members;
  return { rest, boolean: hasTrue && hasFalse };
}

/** Text of `type`; with `named`, structures equal to a named model are printed as its name (except `self`). */
function print(type, named, self) {
  if (!named) {
    const cached = canonicalCache.get(type);
    if (cached !== undefined) return cached;
  } else if (type !== self) {
    const name = byStructure.get(print(type, false));
    if (name !== undefined) return name;
  }
  if (inProgress.has(type)) throw new Error(`a recursive type: ${checker.typeToString(type)}`);
  inProgress.add(type);
  try {
    const text = structure(type, named, self);
    if (!named) canonicalCache.set(type, text);
    return text;
  } finally {
    inProgress.delete(type);
  }
}

function structure(type, named, self) {
  const flags = type.flags;
  const child = (inner) => print(inner, named, undefined);
  if (flags & ts.TypeFlags.Union) {
    const { rest, boolean } = unionMembers(type);
    let texts = [...new Set(rest.map((member) => wrapUnion(child(member))))];
    if (boolean) texts.push('boolean');
    // a named union of literals inside a larger one (Gender | null) is printed as its name
    if (named) {
      for (const [name, members] of literalUnions) {
        if (texts.length > members.size && [...members].every((member) => texts.includes(member))) {
          texts = [name, ...texts.filter((text) => !members.has(text))];
        }
      }
    }
    // a canonical text does not depend on the order the compiler happened to list members in
    const ordered = named ? texts : texts.sort();
    const last = (text) => (text === 'null' || text === 'undefined' ? 1 : 0);
    return ordered.sort((a, b) => last(a) - last(b)).join(' | ');
  }
  if (flags & ts.TypeFlags.Intersection) {
    if (type.types.every((member) => member.flags & ts.TypeFlags.Object && !isLibType(member)))
      return object(type, named);
    return type.types.map((member) => wrapUnion(child(member))).join(' & ');
  }
  if (flags & ts.TypeFlags.StringLiteral) return JSON.stringify(type.value);
  if (!(flags & ts.TypeFlags.Object)) return checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  if (checker.isArrayType(type)) return `${wrapArray(child(checker.getTypeArguments(type)[0]))}[]`;
  if (checker.isTupleType(type)) {
    const elements = checker.getTypeArguments(type);
    const elementFlags = type.target.elementFlags;
    return `[${elements
      .map((element, index) => {
        const text = child(element);
        if (elementFlags[index] & ts.ElementFlags.Rest) return `...${wrapArray(text)}[]`;
        return elementFlags[index] & ts.ElementFlags.Optional ? `${wrapArray(text)}?` : text;
      })
      .join(', ')}]`;
  }
  if (isLibType(type)) {
    // Promise<…>, Array-likes: their arguments are printed here, so that models inside get their names
    const typeArguments = type.objectFlags & ts.ObjectFlags.Reference ? checker.getTypeArguments(type) : [];
    if (typeArguments.length > 0 && type.symbol) return `${type.symbol.name}<${typeArguments.map(child).join(', ')}>`;
    return checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  }
  return object(type, named, self);
}

/** Parentheses around a union or an intersection printed inside an array or a tuple (a name needs none). */
const wrapArray = (text) => (IDENTIFIER.test(text) || !/[|&]/.test(topLevel(text)) ? text : `(${text})`);
const wrapUnion = (text) => text;
/** The text outside every bracket, to see whether a | or & joins the whole. */
function topLevel(text) {
  let depth = 0;
  let quote = false;
  let out = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quote) {
      if (char === '\\') index++;
      else if (char === '"') quote = false;
      continue;
    }
    if (char === '"') quote = true;
    else if ('{[(<'.includes(char)) depth++;
    else if ('}])>'.includes(char)) depth--;
    else if (depth === 0) out += char;
  }
  return out;
}

function object(type, named, self) {
  const overrides = new Map(
    FIELD_OVERRIDES.filter(([model]) => named && self !== undefined && names.get(model) === print(self, false)).map(
      ([, field, text]) => [field, text],
    ),
  );
  const members = [];
  for (const info of checker.getIndexInfosOfType(type)) {
    members.push(`[key: ${checker.typeToString(info.keyType)}]: ${print(info.type, named)}`);
  }
  for (const property of checker.getPropertiesOfType(type)) {
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
    const propertyType = checker.getTypeOfSymbol(property);
    const text = overrides.get(property.name) ?? print(propertyType, named);
    members.push(`${propertyName(property.name)}${optional ? '?' : ''}: ${text}`);
  }
  for (const signature of type.getCallSignatures()) members.push(callSignature(signature, named));
  if (members.length === 0) return '{}';
  return `{ ${members.join('; ')} }`;
}

/** ts-rest's options every call takes beside its inputs: declared once, as CallOptions. */
const CALL_OPTIONS = new Set(['fetchOptions', 'overrideClientOptions', 'cache', 'next']);

/** A route's function: its inputs (params, query, body, headers, extraHeaders) and CallOptions. */
function routeSignature(signature) {
  const [parameter] = signature.getParameters();
  const reply = print(signature.getReturnType(), true);
  if (!parameter) return `(): ${reply}`;
  // an optional parameter's type includes undefined: its properties are those of the rest
  const args = checker.getNonNullableType(checker.getTypeOfSymbol(parameter));
  const members = checker
    .getPropertiesOfType(args)
    .filter((property) => !CALL_OPTIONS.has(property.name))
    .map((property) => {
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      return `${propertyName(property.name)}${optional ? '?' : ''}: ${print(checker.getTypeOfSymbol(property), true)}`;
    });
  const optional = signature.minArgumentCount === 0;
  const type = members.length === 0 ? 'CallOptions' : `{ ${members.join('; ')} } & CallOptions`;
  return `(args${optional ? '?' : ''}: ${type}): ${reply}`;
}

function callSignature(signature, named) {
  const parameters = signature.getParameters().map((parameter, index) => {
    const declaration = parameter.valueDeclaration;
    const optional = index >= signature.minArgumentCount || (declaration && checker.isOptionalParameter(declaration));
    return `${parameter.name}${optional ? '?' : ''}: ${print(checker.getTypeOfSymbol(parameter), named)}`;
  });
  return `(${parameters.join(', ')}): ${print(signature.getReturnType(), named)}`;
}

/** Whether a structure is worth a name wherever it appears: an object, or a union of two or more literals. */
const nameable = (type) =>
  (type.flags & ts.TypeFlags.Object && !isLibType(type) && !checker.isArrayType(type)) ||
  type.flags & ts.TypeFlags.Intersection ||
  (type.flags & ts.TypeFlags.Union && type.types.length > 1);

/** Named unions of literals, largest first: [name, member texts]. */
const literalUnions = [];
const declarations = [];
function addNamed(name, type, doc) {
  if (names.has(name)) return;
  const canonical = print(type, false);
  const existing = byStructure.get(canonical);
  names.set(name, canonical);
  if (existing !== undefined) {
    declarations.push({ name, doc, text: `export type ${name} = ${existing};` });
    return;
  }
  if (nameable(type)) byStructure.set(canonical, name);
  if (type.flags & ts.TypeFlags.Union && type.types.every((member) => member.flags & ts.TypeFlags.Literal)) {
    literalUnions.push([name, new Set(canonical.split(' | '))]);
    literalUnions.sort((a, b) => b[1].size - a[1].size);
  }
  declarations.push({ name, doc, type });
}

// ErrorCode in its declared order, first, so that every union equal to it is printed as it
const errorCodeList = contract.ERROR_CODE_LIST;
names.set('ErrorCode', 'ErrorCode');
declarations.push({
  name: 'ErrorCode',
  doc: 'Stable machine-readable error code; never reused for another meaning.',
  text: `export type ErrorCode = ${errorCodeList.map((code) => JSON.stringify(code)).join(' | ')};`,
});

// the contract's own exported types, under their names
const contractSymbol = (() => {
  const importDeclaration = entry.statements.find(
    (statement) => ts.isImportDeclaration(statement) && statement.moduleSpecifier.text === '@riff/contract',
  );
  return checker.getSymbolAtLocation(importDeclaration.moduleSpecifier);
})();
const docOf = (symbol) => ts.displayPartsToString(symbol.getDocumentationComment(checker)) || undefined;
for (const symbol of checker.getExportsOfModule(contractSymbol)) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  if (!(target.flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface))) continue;
  if (SKIPPED_TYPES.has(symbol.name) || symbol.name === 'ErrorCode') continue;
  const declared = checker.getDeclaredTypeOfSymbol(target);
  if (declared.isTypeParameter?.() || (target.declarations?.[0]?.typeParameters?.length ?? 0) > 0) continue;
  addNamed(symbol.name, declared, docOf(target));
}
// the schemas named for the OpenAPI document, under their titles (a request's input as <Title>Input when it differs)
for (const [name, title] of namedSchemas) {
  const output = entryType(`__Out_${name}`);
  const input = entryType(`__In_${name}`);
  addNamed(title, output);
  if (print(input, false) !== print(output, false)) addNamed(`${title}Input`, input);
}
for (const name of CLIENT_TYPES) addNamed(name, entryType(`__Client_${name}`));

// ---- the API: one interface per area, one method per operation ----

const docComment = (doc, indent = '') =>
  doc ? `${indent}/** ${doc.replace(/\*\//g, '*\\/').replace(/\n/g, `\n${indent} * `)} */\n` : '';

const api = entryType('__Api');
const areaTexts = checker.getPropertiesOfType(api).map((area) => {
  const routes = checker.getPropertiesOfType(checker.getTypeOfSymbol(area)).map((route) => {
    const [signature] = checker.getTypeOfSymbol(route).getCallSignatures();
    const declared = contract.contract[area.name]?.[route.name];
    const doc = declared ? `${declared.summary ?? ''} (${declared.method} ${declared.path})`.trim() : undefined;
    return `${docComment(doc, '    ')}    ${propertyName(route.name)}${routeSignature(signature)};`;
  });
  return `  ${propertyName(area.name)}: {\n${routes.join('\n')}\n  };`;
});

const modelTexts = declarations.map(
  ({ name, doc, type, text }) => `${docComment(doc)}${text ?? `export type ${name} = ${print(type, true, type)};`}`,
);

const output = `// Generated by client/scripts/emit-declarations.mjs from the contract: do not edit.
import type { ZodError, ZodType, ZodTypeDef } from 'zod';

${modelTexts.join('\n')}

/** One typed function per contract route: \`client.auth.me()\`, \`client.auth.checkUsername({ query })\`. */
export interface RiffApi {
${areaTexts.join('\n')}
}

/** What every call takes beside its inputs. */
export interface CallOptions {
  /** fetch's options for this call (signal, cache, credentials, …). */
  fetchOptions?: Omit<RequestInit, 'method' | 'headers' | 'body'>;
  /** The client's options, for this call only. */
  overrideClientOptions?: { baseUrl?: string; credentials?: RequestCredentials; jsonQuery?: boolean; validateResponse?: boolean };
  /** @deprecated Use \`fetchOptions.cache\` instead. */
  cache?: RequestCache;
}

/** The live channel's close codes. */
export declare const LIVE_CLOSE_CODES: ${print(entryType('__CloseCodes'), true)};
${Object.entries(LIVE_SCHEMAS)
  .map(
    ([schema, type]) =>
      `/** The zod schema of ${type}. */\nexport declare const ${schema}: ZodType<${type}, ZodTypeDef, unknown>;`,
  )
  .join('\n')}

/** A reply whose body does not match the contract (with response validation on). */
export declare class ResponseValidationError extends Error {
  appRoute: { method: string; path: string; [key: string]: unknown };
  cause: ZodError;
  constructor(appRoute: { method: string; path: string; [key: string]: unknown }, cause: ZodError);
}
/** A reply with a status the contract does not declare for that operation. */
export declare class UnknownStatusError extends Error {
  response: { status: number; body: unknown };
  constructor(response: { status: number; body: unknown }, knownResponseStatuses: string[]);
}
`;

await writeFile(outFile, output);
process.stdout.write(
  `wrote ${path.relative(process.cwd(), outFile)}: ${output.length} characters, ${names.size} named types\n`,
);

// ---- the check: every call of the file written takes the inputs and gives the replies of the client's own types ----

const checkFile = path.join(clientDir, 'src', '__declarations-check.ts');
const checkText = [
  "import type { RiffApi as Flat } from '../dist/contract-types.js';",
  "import type { RiffApi as Source } from './contract-types.js';",
  'export type __Flat = Flat;',
  'export type __Source = Source;',
].join('\n');
const checkHost = ts.createCompilerHost(options);
checkHost.getSourceFile = (file, language, ...rest) =>
  path.resolve(file) === checkFile
    ? ts.createSourceFile(file, checkText, language)
    : readSource(file, language, ...rest);
checkHost.fileExists = (file) => path.resolve(file) === checkFile || baseFileExists(file);
const checkProgram = ts.createProgram([checkFile], { ...options, skipLibCheck: false }, checkHost);
const verifier = checkProgram.getTypeChecker();
// only the file written is checked here (skipLibCheck off so that its own declarations are)
const flatSource = checkProgram.getSourceFile(outFile);
const flatProblems = [
  ...checkProgram.getSyntacticDiagnostics(flatSource),
  ...checkProgram.getSemanticDiagnostics(flatSource),
];
if (flatProblems.length > 0)
  throw new Error(ts.formatDiagnostics(flatProblems, { ...checkHost, getNewLine: () => '\n' }));
const checkModule = verifier.getSymbolAtLocation(checkProgram.getSourceFile(checkFile));
const checkType = (name) =>
  verifier.getDeclaredTypeOfSymbol(verifier.getExportsOfModule(checkModule).find((symbol) => symbol.name === name));
const routeParts = (apiType, area, route) => {
  const areaSymbol = verifier.getPropertyOfType(apiType, area);
  const routeSymbol = areaSymbol && verifier.getPropertyOfType(verifier.getTypeOfSymbol(areaSymbol), route);
  const [signature] = routeSymbol ? verifier.getTypeOfSymbol(routeSymbol).getCallSignatures() : [];
  if (!signature) return undefined;
  const [parameter] = signature.getParameters();
  const reply = verifier.getAwaitedType(signature.getReturnType());
  const statuses = (reply.isUnion() ? reply.types : [reply])
    .map((member) => verifier.typeToString(verifier.getTypeOfSymbol(verifier.getPropertyOfType(member, 'status'))))
    .sort();
  const args = parameter ? verifier.getTypeOfSymbol(parameter) : verifier.getUndefinedType();
  const inputs = verifier
    .getPropertiesOfType(verifier.getNonNullableType(args))
    .map((property) => `${property.name}${property.flags & ts.SymbolFlags.Optional ? '?' : ''}`)
    .sort();
  return {
    args,
    inputs: inputs.join(','),
    optional: signature.minArgumentCount === 0,
    reply,
    statuses: statuses.join(','),
  };
};
const flatApi = checkType('__Flat');
const sourceApi = checkType('__Source');
const mismatches = [];
for (const area of verifier.getPropertiesOfType(sourceApi)) {
  for (const route of verifier.getPropertiesOfType(verifier.getTypeOfSymbol(area))) {
    const where = `${area.name}.${route.name}`;
    const source = routeParts(sourceApi, area.name, route.name);
    const flat = routeParts(flatApi, area.name, route.name);
    if (!flat) mismatches.push(`${where}: missing`);
    else if (flat.optional !== source.optional) mismatches.push(`${where}: its argument is optional in one only`);
    else if (flat.inputs !== source.inputs)
      mismatches.push(`${where}: its inputs are ${flat.inputs}, not ${source.inputs}`);
    else if (
      !verifier.isTypeAssignableTo(source.args, flat.args) ||
      !verifier.isTypeAssignableTo(flat.args, source.args)
    )
      mismatches.push(`${where}: its inputs differ`);
    // the flat replies are the source's with error codes narrowed to ErrorCode: the same statuses, each assignable
    else if (flat.statuses !== source.statuses) mismatches.push(`${where}: its statuses differ`);
    else if (!verifier.isTypeAssignableTo(flat.reply, source.reply)) mismatches.push(`${where}: its replies differ`);
  }
}
if (mismatches.length > 0)
  throw new Error(`the flat declarations differ from the client's types:\n${mismatches.join('\n')}`);
process.stdout.write(
  `checked: ${verifier.getPropertiesOfType(sourceApi).length} areas, every operation's inputs and replies\n`,
);
