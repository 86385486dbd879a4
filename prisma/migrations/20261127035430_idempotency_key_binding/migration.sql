-- DropIndex
DROP INDEX "IdempotencyKey_createdAt_idx";

-- AlterTable
ALTER TABLE "IdempotencyKey" ADD COLUMN     "answeredAt" TIMESTAMPTZ(3),
ADD COLUMN     "holder" TEXT,
ADD COLUMN     "holderProcess" INTEGER,
ADD COLUMN     "resourceId" TEXT,
ADD COLUMN     "resourceType" TEXT;

-- CreateIndex
CREATE INDEX "IdempotencyKey_state_createdAt_idx" ON "IdempotencyKey"("state", "createdAt");

-- CreateIndex
CREATE INDEX "IdempotencyKey_answeredAt_idx" ON "IdempotencyKey"("answeredAt");

-- Keys answered before this migration are kept for the retention from their creation, as before
UPDATE "IdempotencyKey" SET "answeredAt" = "createdAt" WHERE "state" = 'COMPLETED';
