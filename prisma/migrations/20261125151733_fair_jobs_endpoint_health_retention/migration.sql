-- DropIndex
DROP INDEX "Job_queue_status_idx";

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "groupKey" TEXT,
ADD COLUMN     "targetKey" TEXT;

-- AlterTable
ALTER TABLE "WebhookSubscription" ADD COLUMN     "failingSince" TIMESTAMPTZ(3),
ADD COLUMN     "failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "pausedUntil" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Job_queue_status_runAt_idx" ON "Job"("queue", "status", "runAt");

-- CreateIndex
CREATE INDEX "Job_targetKey_status_idx" ON "Job"("targetKey", "status");

-- CreateIndex
CREATE INDEX "WebhookEvent_createdAt_idx" ON "WebhookEvent"("createdAt");
