/**
 * A state machine's definition in the Amazon States Language: its types, and the checks
 * CreateStateMachine and UpdateStateMachine make before accepting one — valid JSON, `StartAt`
 * naming a state, every state of a known type, every `Next` / `Default` / `Catch` target naming a
 * state, a non-terminal state saying where it goes — answered as AWS words them
 * (`Invalid State Machine Definition: 'MISSING_TRANSITION_TARGET: …'`).
 */
import { sfnErrors } from './errors.js';

export interface Retrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxAttempts?: number;
  BackoffRate?: number;
  MaxDelaySeconds?: number;
}

export interface Catcher {
  ErrorEquals: string[];
  Next: string;
  ResultPath?: string | null;
}

export interface State {
  Type: string;
  Next?: string;
  End?: boolean;
  Comment?: string;
  InputPath?: string | null;
  OutputPath?: string | null;
  ResultPath?: string | null;
  Parameters?: unknown;
  ResultSelector?: unknown;
  Result?: unknown;
  Resource?: string;
  TimeoutSeconds?: number;
  Retry?: Retrier[];
  Catch?: Catcher[];
  Seconds?: number;
  SecondsPath?: string;
  Timestamp?: string;
  TimestampPath?: string;
  Error?: string;
  Cause?: string;
  Choices?: Record<string, unknown>[];
  Default?: string;
}

export interface Definition {
  StartAt: string;
  States: Record<string, State>;
  TimeoutSeconds?: number;
}

const TYPES = new Set(['Task', 'Pass', 'Wait', 'Choice', 'Succeed', 'Fail', 'Parallel', 'Map']);
const TERMINAL = new Set(['Succeed', 'Fail', 'Choice']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The definition text parsed and checked; InvalidDefinition when AWS would refuse it. */
export function parseDefinition(text: string): Definition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw sfnErrors.invalidDefinition(`INVALID_JSON_DESCRIPTION: ${err instanceof Error ? err.message : String(err)}`);
  }
  const problems: string[] = [];
  if (!isObject(parsed)) throw sfnErrors.invalidDefinition('SCHEMA_VALIDATION_FAILED: The definition must be a JSON object at /');
  const states = parsed.States;
  if (typeof parsed.StartAt !== 'string') problems.push("SCHEMA_VALIDATION_FAILED: These fields are required: [StartAt] at /");
  if (!isObject(states)) problems.push('SCHEMA_VALIDATION_FAILED: These fields are required: [States] at /');
  else {
    if (typeof parsed.StartAt === 'string' && !(parsed.StartAt in states)) {
      problems.push(`MISSING_TRANSITION_TARGET: Missing 'Next' target: ${parsed.StartAt} at /StartAt`);
    }
    for (const [name, raw] of Object.entries(states)) problems.push(...stateProblems(name, raw, states));
  }
  if (problems.length) throw sfnErrors.invalidDefinition(problems.join(', '));
  return parsed as unknown as Definition;
}

function stateProblems(name: string, raw: unknown, states: Record<string, unknown>): string[] {
  const at = `/States/${name}`;
  if (!isObject(raw)) return [`SCHEMA_VALIDATION_FAILED: The state must be a JSON object at ${at}`];
  const s = raw as unknown as State;
  if (!TYPES.has(s.Type)) return [`SCHEMA_VALIDATION_FAILED: ${JSON.stringify(s.Type)} is not a valid state type at ${at}/Type`];
  const out: string[] = [];
  const target = (next: unknown, where: string) => {
    if (typeof next !== 'string' || !(next in states)) out.push(`MISSING_TRANSITION_TARGET: Missing 'Next' target: ${String(next)} at ${at}${where}`);
  };
  if (!TERMINAL.has(s.Type)) {
    if (s.End !== true && s.Next === undefined) out.push(`SCHEMA_VALIDATION_FAILED: No transition found out of state at ${at}`);
    if (s.Next !== undefined) target(s.Next, '/Next');
  }
  if (s.Type === 'Task' && typeof s.Resource !== 'string') out.push(`SCHEMA_VALIDATION_FAILED: These fields are required: [Resource] at ${at}`);
  if (s.Type === 'Choice') {
    if (!Array.isArray(s.Choices) || s.Choices.length === 0) out.push(`SCHEMA_VALIDATION_FAILED: These fields are required: [Choices] at ${at}`);
    else s.Choices.forEach((c, i) => target(c.Next, `/Choices/${i}/Next`));
    if (s.Default !== undefined) target(s.Default, '/Default');
  }
  (s.Catch ?? []).forEach((c, i) => target(c.Next, `/Catch/${i}/Next`));
  return out;
}
