import { CREATED, OTHER_USER_ID, TRACK_ID, UPDATED, USER_ID, onePage } from '../../common/common.examples.js';
import { comment } from '../comments/comments.examples.js';
import { strike } from '../copyright/copyright.examples.js';
import { suspension } from '../sanctions/sanctions.examples.js';

// the examples are content appeals: a sanction's or strike's target_type is null, which the
// OpenAPI linter cannot check against the referenced enum of the nullable field

/** An open appeal of a hidden track (the account export lists the user's appeals like this). */
export const appeal = {
  id: 'c4a1e8f2-7b3d-4e9a-9f0c-2d5b8a1e6c3f',
  subject_type: 'content',
  subject_id: TRACK_ID,
  target_type: 'track',
  message: 'The sample in this track is licensed: the license is linked in the track’s description.',
  status: 'open',
  created_at: UPDATED,
  decided_at: null,
  note: null,
};

/** A granted appeal of a removed comment, as staff see it. */
const grantedAppeal = {
  id: 'e2b7c9d4-1a6f-4c3e-8b5d-7f0a9c2e4b6d',
  subject_type: 'content',
  subject_id: comment.id,
  target_type: 'comment',
  message: 'The comment quoted the lyrics of the track it was posted on; it insulted nobody.',
  status: 'granted',
  created_at: CREATED,
  decided_at: UPDATED,
  note: 'Read in context, the comment is a quotation: it is visible again.',
  appellant_id: USER_ID,
};

const standing = {
  sanctions: [suspension],
  strikes: [strike],
  content: [
    {
      target_type: 'track',
      target_id: TRACK_ID,
      moderation_status: 'hidden',
      moderation_reason: 'Reported as a copy of another artist’s track',
    },
  ],
};

export const APPEALS_EXAMPLES: Record<string, unknown> = {
  AppealContentType: 'track',
  Appeal: appeal,
  AppealReply: { appeal },
  AppealPage: { appeals: [appeal], pagination: onePage(1) },
  StaffAppeal: grantedAppeal,
  StaffAppealReply: { appeal: grantedAppeal },
  StaffAppealPage: { appeals: [{ ...appeal, appellant_id: OTHER_USER_ID }], pagination: onePage(1) },
  CreateAppealRequest: { subject_type: 'content', subject_id: TRACK_ID, message: appeal.message },
  AppealByTokenRequest: {
    token: 'b3Jx9QmZ2vKpL7tYc4NwR8sHf1Ue6Da0',
    message: 'The comments were quoted out of context: the thread shows I was answering a direct insult.',
  },
  DecideAppealRequest: { outcome: 'granted', note: grantedAppeal.note },
  Standing: standing,
};
