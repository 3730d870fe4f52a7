import { randomBytes } from 'node:crypto';
import { toMinor } from '@portal/contract';
import { SANDBOX_MESSAGES, sandboxOutcome, sandboxResolution } from '../payments';
import type { Acquirer, AcquirerAnswer, OperationRequest } from './acquirer.types';

const channelOrderNo = () => `SBX${randomBytes(8).toString('hex').toUpperCase()}`;

function answerOf(out: { gwResponse: string; respMsg: string }): AcquirerAnswer {
  return out.gwResponse === '04' ? { kind: 'processing', respMsg: out.respMsg } : { kind: 'final', gwResponse: out.gwResponse, respMsg: out.respMsg, channelOrderNo: channelOrderNo() };
}

/**
 * The sandbox behind the `Acquirer` interface: it answers at once, from the test amounts of
 * docs/sandbox.md (…51 declined, …04 / …14 processing, anything else approved). Its status
 * answer for a processing amount is the resolution (…14 declined by issuer, else approved).
 */
export function createSandboxAdapter(): Acquirer {
  const minor = (r: OperationRequest) => toMinor(r.amount, r.currency);
  return {
    name: 'sandbox',
    refund: async (r) => answerOf(sandboxOutcome(minor(r))),
    charge: async (r) => answerOf(sandboxOutcome(minor(r))),
    void: async () => ({ kind: 'final', gwResponse: '00', respMsg: SANDBOX_MESSAGES.approved, channelOrderNo: channelOrderNo() }),
    status: async (r) => {
      const first = r.kind === 'void' ? { gwResponse: '00', respMsg: SANDBOX_MESSAGES.approved } : sandboxOutcome(minor(r));
      return answerOf(first.gwResponse === '04' ? sandboxResolution(minor(r)) : first);
    },
    // Issue 48: the sandbox takes every dispute answer at once.
    dispute: async () => ({ kind: 'final', gwResponse: '00', respMsg: SANDBOX_MESSAGES.approved, channelOrderNo: null }),
  };
}
