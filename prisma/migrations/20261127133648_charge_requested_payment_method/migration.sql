-- AlterTable
ALTER TABLE "Charge" ADD COLUMN     "requestedPaymentMethodId" TEXT;

-- A saved-method charge still being made, that had not moved on to a fallback, was asked of the
-- method it names: a resumed charge plans its routes from it (older charges are never resumed).
UPDATE "Charge" SET "requestedPaymentMethodId" = "paymentMethodId"
WHERE "status" = 'PROCESSING' AND "paymentMethodId" IS NOT NULL AND "attemptCount" <= 1;
