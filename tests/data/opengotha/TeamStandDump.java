package info.vannier.gotha;

import java.io.*;
import java.util.*;

/**
 * Prints OpenGotha's own team standings for every round of each XML file: the file's team
 * criteria (TeamPlacementParameterSet), one line per team: number, name, printed place
 * ("" when it shares the place above), and the stored value of each of the six criteria.
 *
 * Built against OpenGotha 3.51.02's classes (lucvannier/opengotha, src/):
 *   javac -cp lib/jhall.jar -d build $(find src -name '*.java') TeamStandDump.java
 *   java -Djava.awt.headless=true -cp build:lib/jhall.jar info.vannier.gotha.TeamStandDump out.tsv *.xml
 */
public class TeamStandDump {
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(args[0]), true, "UTF-8");
        for (int a = 1; a < args.length; a++) {
            File f = new File(args[a]);
            Tournament t = new Tournament();
            ExternalDocument.importTournamentFromXMLFile(f, t, true, true, true, true, true);
            int nr = t.getTournamentParameterSet().getGeneralParameterSet().getNumberOfRounds();
            TeamPlacementParameterSet tpps = t.getTeamTournamentParameterSet().getTeamPlacementParameterSet();
            int[] crit = tpps.getPlaCriteria();
            StringBuilder names = new StringBuilder();
            for (int c : crit) names.append(TeamPlacementParameterSet.criterionLongName(c)).append(",");
            out.println("FILE\t" + f.getName() + "\t" + nr + "\t" + t.teamsList().size() + "\t" + names);
            for (int r = 0; r < nr; r++) {
                ScoredTeamsSet sts = t.getAnUpToDateScoredTeamsSet(tpps, r);
                out.println("ROUND\t" + (r + 1));
                for (ScoredTeam st : sts.getOrderedScoredTeamsList()) {
                    StringBuilder line = new StringBuilder();
                    line.append(st.getTeamNumber() + 1).append("\t").append(st.getTeamName()).append("\t");
                    line.append(sts.getTeamPositionString(st).trim());
                    for (int i = 0; i < crit.length; i++) line.append("\t").append(st.getCritValue(i));
                    out.println(line);
                }
            }
        }
    }
}
