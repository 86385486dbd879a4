-- Jobs enqueued without a group or target keep ''.
UPDATE "Job" SET "groupKey" = COALESCE("groupKey", ''), "targetKey" = COALESCE("targetKey", '') WHERE "groupKey" IS NULL OR "targetKey" IS NULL;

/*
  Warnings:

  - Made the column `groupKey` on table `Job` required. This step will fail if there are existing NULL values in that column.
  - Made the column `targetKey` on table `Job` required. This step will fail if there are existing NULL values in that column.

*/
-- AlterTable
ALTER TABLE "Job" ALTER COLUMN "groupKey" SET NOT NULL,
ALTER COLUMN "groupKey" SET DEFAULT '',
ALTER COLUMN "targetKey" SET NOT NULL,
ALTER COLUMN "targetKey" SET DEFAULT '';

-- CreateIndex
CREATE INDEX "Job_status_queue_groupKey_targetKey_runAt_idx" ON "Job"("status", "queue", "groupKey", "targetKey", "runAt");
