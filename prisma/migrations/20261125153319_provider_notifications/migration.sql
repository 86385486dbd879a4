-- CreateEnum
CREATE TYPE "ProviderModificationStatus" AS ENUM ('PENDING', 'CONFIRMED', 'FAILED');

-- CreateTable
CREATE TABLE "ProviderModification" (
    "id" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "chargeId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "refundId" TEXT,
    "amount" BIGINT NOT NULL,
    "providerReference" TEXT,
    "status" "ProviderModificationStatus" NOT NULL DEFAULT 'PENDING',
    "gatewayCode" TEXT,
    "gatewayMessage" TEXT,
    "dateAdded" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateSettled" TIMESTAMPTZ(3),

    CONSTRAINT "ProviderModification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProviderNotification" (
    "providerId" TEXT NOT NULL,
    "notificationId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "success" BOOLEAN NOT NULL,
    "providerChargeId" TEXT,
    "providerReference" TEXT,
    "gatewayCode" TEXT,
    "gatewayMessage" TEXT,
    "modificationId" TEXT,
    "dateReceived" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProviderNotification_pkey" PRIMARY KEY ("providerId","notificationId")
);

-- CreateIndex
CREATE UNIQUE INDEX "ProviderModification_refundId_key" ON "ProviderModification"("refundId");

-- CreateIndex
CREATE INDEX "ProviderModification_providerId_providerReference_idx" ON "ProviderModification"("providerId", "providerReference");

-- CreateIndex
CREATE INDEX "ProviderModification_providerId_status_dateAdded_idx" ON "ProviderModification"("providerId", "status", "dateAdded");

-- CreateIndex
CREATE INDEX "ProviderModification_chargeId_idx" ON "ProviderModification"("chargeId");

-- CreateIndex
CREATE INDEX "ProviderNotification_providerId_providerReference_idx" ON "ProviderNotification"("providerId", "providerReference");

-- CreateIndex
CREATE INDEX "ProviderNotification_dateReceived_idx" ON "ProviderNotification"("dateReceived");

-- AddForeignKey
ALTER TABLE "ProviderModification" ADD CONSTRAINT "ProviderModification_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProviderModification" ADD CONSTRAINT "ProviderModification_chargeId_fkey" FOREIGN KEY ("chargeId") REFERENCES "Charge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProviderNotification" ADD CONSTRAINT "ProviderNotification_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
