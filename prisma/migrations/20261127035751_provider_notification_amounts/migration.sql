-- AlterTable
ALTER TABLE "ProviderModification" ADD COLUMN     "dateConfirmed" TIMESTAMPTZ(3),
ADD COLUMN     "notifiedAmount" BIGINT,
ADD COLUMN     "notifiedCurrency" TEXT;

-- AlterTable
ALTER TABLE "ProviderNotification" ADD COLUMN     "amount" BIGINT,
ADD COLUMN     "currency" TEXT,
ADD COLUMN     "mismatch" BOOLEAN NOT NULL DEFAULT false;

-- Modifications confirmed before this migration were confirmed when they were settled.
UPDATE "ProviderModification" SET "dateConfirmed" = "dateSettled" WHERE "status" = 'CONFIRMED';
