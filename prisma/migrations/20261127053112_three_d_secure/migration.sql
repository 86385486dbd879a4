/*
  Warnings:

  - A unique constraint covering the columns `[threeDsToken]` on the table `Charge` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "Charge" ADD COLUMN     "threeDs" JSONB,
ADD COLUMN     "threeDsChallenge" JSONB,
ADD COLUMN     "threeDsStartedAt" TIMESTAMPTZ(3),
ADD COLUMN     "threeDsToken" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Charge_threeDsToken_key" ON "Charge"("threeDsToken");
