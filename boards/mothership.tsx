<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="mothership" tilewidth="64" tileheight="64" tilecount="33" columns="8">
 <image source="mothership_tiles.png" width="512" height="320"/>
 <tile id="1">
  <properties>
   <property name="space" value="tile"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="space" value="gap"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="space" value="start"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="space" value="finish"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="1"/>
   <property name="zone" value="green"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="2"/>
   <property name="zone" value="green"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="3"/>
   <property name="zone" value="green"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="4"/>
   <property name="zone" value="green"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="5"/>
   <property name="zone" value="green"/>
  </properties>
 </tile>
 <tile id="12">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="6"/>
   <property name="zone" value="green"/>
  </properties>
 </tile>
 <tile id="13">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="7"/>
   <property name="zone" value="green"/>
  </properties>
 </tile>
 <tile id="14">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="8"/>
   <property name="zone" value="green"/>
  </properties>
 </tile>
 <tile id="15">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="9"/>
   <property name="zone" value="red"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="10"/>
   <property name="zone" value="red"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="11"/>
   <property name="zone" value="red"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="space" value="track"/>
   <property name="place" type="int" value="12"/>
   <property name="zone" value="red"/>
  </properties>
 </tile>
</tileset>
