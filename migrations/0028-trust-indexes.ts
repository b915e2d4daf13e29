import { sql, type Kysely } from 'kysely';

/**
 * The moderation queue at 100,000 open reports within 2× of its time at 1,000 (issue 30's bench).
 *
 * - moderation_case_count_deltas: how many cases each (status, target_type, assigned) gained or
 *   lost. The queue's total (its pagination) was `count(*) over ()`, which read every open case for
 *   every page. Triggers append a row per statement that changes those numbers, inside its
 *   transaction, so a reader's snapshot sums exactly the cases it sees; appending takes no lock a
 *   concurrent writer waits on (as product_count_deltas, 0017). A periodic job folds the rows into
 *   one per key.
 * - moderation_cases_queue_type: the queue of one target type in its order, so that a type with few
 *   cases is not found by walking every open case.
 * - moderation_cases_assigned: a moderator's own cases (assigned=me) in the queue's order, page and
 *   count read from their cases only.
 * - reports_reason: the cases with a report for a reason, counted from the reports for it (a report's
 *   status is its case's) instead of probing every case of the status.
 * - users_creators: an announcement to the creators pages through them by id; without it each batch
 *   read every account to find the creators among them (issue 30's bench: 1,000 creators of 101,000
 *   accounts, 38 ms a batch, 0.4 ms with it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table moderation_case_count_deltas (
    status text not null,
    target_type text not null,
    assigned boolean not null,
    delta bigint not null
  )`.execute(db);
  await sql`create index moderation_case_count_deltas_key on moderation_case_count_deltas (status, target_type, assigned) include (delta)`.execute(
    db,
  );

  const key = sql`status, target_type, assigned_to is not null`;
  // one function for the three statements: the rows each key gained (new) minus those it lost (old)
  for (const [op, transition, gained, lost] of [
    [
      'insert',
      'referencing new table as new_rows',
      sql`select ${key} from new_rows`,
      sql`select null::text, null::text, null::boolean where false`,
    ],
    [
      'delete',
      'referencing old table as old_rows',
      sql`select null::text, null::text, null::boolean where false`,
      sql`select ${key} from old_rows`,
    ],
    [
      'update',
      'referencing old table as old_rows new table as new_rows',
      sql`select ${key} from new_rows`,
      sql`select ${key} from old_rows`,
    ],
  ] as const) {
    await sql`create function ${sql.raw(`riff_moderation_case_counts_${op}`)}() returns trigger language plpgsql as $$
      begin
        insert into public.moderation_case_count_deltas (status, target_type, assigned, delta)
        select status, target_type, assigned, sum(delta) from (
          select status, target_type, assigned, 1 as delta from (${gained}) g(status, target_type, assigned)
          union all
          select status, target_type, assigned, -1 from (${lost}) l(status, target_type, assigned)
        ) changes
        group by status, target_type, assigned
        having sum(delta) <> 0;
        return null;
      end $$`.execute(db);
    await sql`create trigger ${sql.raw(`moderation_cases_count_${op}`)} after ${sql.raw(op)} on moderation_cases ${sql.raw(transition)}
      for each statement execute function ${sql.raw(`riff_moderation_case_counts_${op}`)}()`.execute(db);
  }
  await sql`insert into moderation_case_count_deltas (status, target_type, assigned, delta)
    select status, target_type, assigned_to is not null, count(*) from moderation_cases
    group by status, target_type, assigned_to is not null`.execute(db);

  await sql`create index moderation_cases_queue_type on moderation_cases (status, target_type, report_count desc, first_reported_at, id)`.execute(
    db,
  );
  await sql`create index moderation_cases_assigned on moderation_cases (assigned_to, status, report_count desc, first_reported_at, id)
    where assigned_to is not null`.execute(db);
  await sql`create index reports_reason on reports (reason, status, case_id) include (target_type)`.execute(db);
  // the predicate is the audience's own condition, written out in users.repository.ts audiencePage so that
  // the planner proves it from the statement itself (a parameter could not prove it in a generic plan)
  await sql`create index users_creators on users (id) where role = 'creator' or promoted_to_creator_at is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const op of ['insert', 'delete', 'update']) {
    await sql`drop trigger ${sql.raw(`moderation_cases_count_${op}`)} on moderation_cases`.execute(db);
    await sql`drop function ${sql.raw(`riff_moderation_case_counts_${op}`)}()`.execute(db);
  }
  await sql`drop table moderation_case_count_deltas`.execute(db);
  await sql`drop index moderation_cases_queue_type`.execute(db);
  await sql`drop index moderation_cases_assigned`.execute(db);
  await sql`drop index reports_reason`.execute(db);
  await sql`drop index users_creators`.execute(db);
}
