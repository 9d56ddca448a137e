-- Finch's store, version 2: a claim records who made it, so the same claimant's retry of a step (a Temporal activity
-- attempt) is answered as the claim it already holds. Claims made before version 2, and ledger claims, have none ('').
ALTER TABLE finch_claims ADD COLUMN claimant TEXT NOT NULL DEFAULT '';
