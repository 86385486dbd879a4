-- AlterTable
ALTER TABLE "Charge" ADD COLUMN     "requestedPaymentMethodId" TEXT;
