-- Trigram indexes for the charge search (contains matches). pg_trgm is a trusted extension: any
-- role with CREATE on the database may create it; PGlite is given it by @gateway/db.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- AlterTable
ALTER TABLE "PaymentLink" ADD COLUMN     "askEmail" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Charge_accountId_paymentLinkId_dateAdded_idx" ON "Charge"("accountId", "paymentLinkId", "dateAdded" DESC);

-- CreateIndex
CREATE INDEX "Charge_accountId_providerChargeId_idx" ON "Charge"("accountId", "providerChargeId");

-- CreateIndex
CREATE INDEX "Charge_reference_trgm_idx" ON "Charge" USING GIN ("reference" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Charge_email_trgm_idx" ON "Charge" USING GIN ("email" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Charge_cardMasked_trgm_idx" ON "Charge" USING GIN ("cardMasked" gin_trgm_ops);
